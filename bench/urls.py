"""The site's URLs plus `/__ceiling__/`: a constant page through the same middleware."""

from django.http import HttpResponse
from django.urls import include, path


def ceiling(request):
    return HttpResponse("<!doctype html><title>ok</title><p>ok</p>")


urlpatterns = [path("__ceiling__/", ceiling), path("", include("yahtzee.urls"))]

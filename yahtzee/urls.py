from django.conf import settings
from django.contrib import admin
from django.urls import include, path

urlpatterns = [path("", include("scorecard.urls"))]
handler404 = "scorecard.views.errors.not_found"  # a revoked link says so
if settings.ADMIN_ENABLED:  # off unless DJANGO_ADMIN=1; the admin itself admits staff only
    urlpatterns.insert(0, path("admin/", admin.site.urls))

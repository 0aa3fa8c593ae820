"""Print the address a phone on the same network opens, with a QR code to scan."""

import io
import subprocess

import segno
from django.core.management.base import BaseCommand


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, as `hostname -I` lists them."""
    try:
        listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    return [address for address in listed.stdout.split() if "." in address]


class Command(BaseCommand):
    help = "Show the address (and a QR code) phones at the table open to reach this server."

    def add_arguments(self, parser):
        parser.add_argument("port", type=int)

    def handle(self, *args, port: int, **options):
        addresses = local_addresses()
        if not addresses:
            self.stdout.write("No network address found: phones cannot reach this machine.")
            return
        url = f"http://{addresses[0]}:{port}/"
        self.stdout.write(f"Open {url} on a phone on the same network:")
        drawing = io.StringIO()
        segno.make(url, error="m").terminal(out=drawing, compact=True)
        self.stdout.write(drawing.getvalue(), ending="")
        for other in addresses[1:]:
            self.stdout.write(f"  or http://{other}:{port}/")

"""Start Django on a throwaway test database, for the benchmarks in this folder."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

# No setup_test_environment(): it instruments every template render for the test client,
# which a served request does not pay.
connection.creation.create_test_db(verbosity=0, autoclobber=True)

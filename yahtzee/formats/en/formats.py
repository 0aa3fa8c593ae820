"""English dates as the card has always written them ("4 Dec 2026", "4 Dec 2026, 18:05"),
not Django's American "Dec. 4, 2026, 6:05 p.m.". Every other language writes them in its
own way, from Django's formats for it (`FORMAT_MODULE_PATH` in the settings)."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j M"
TIME_FORMAT = "H:i"

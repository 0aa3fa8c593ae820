"""Finnish: a day of a month without its year in the month's partitive ("4. joulukuuta"),
as with its year; Django's own writes the nominative ("4. joulukuu")."""

MONTH_DAY_FORMAT = "j. E"

from django.contrib import admin

from scorecard.models import ENTRY_FIELDS, Entry, Game, Household, Player, Roll, Seat, UndoneEntry


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Household)
class HouseholdAdmin(admin.ModelAdmin):
    list_display = ["public_id", "created"]
    search_fields = ["public_id"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created"]
    search_fields = ["name"]
    raw_id_fields = ["owner"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["public_id", "mode", "joker", "digital", "created", "finished", "version"]
    list_filter = ["mode", "joker", "digital"]
    raw_id_fields = ["owner"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["game", "player", "position"]
    raw_id_fields = ["game", "player"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["game", "seat", *ENTRY_FIELDS]
    list_filter = ["box", "yahtzee_bonus"]
    raw_id_fields = ["game", "seat"]


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    list_display = ["game", "turn", "number", "dice", "held", "created"]
    raw_id_fields = ["game"]


@admin.register(UndoneEntry)
class UndoneEntryAdmin(admin.ModelAdmin):
    list_display = ["game", "turn", "seat", "box", "points", "undone"]
    raw_id_fields = ["game", "seat"]

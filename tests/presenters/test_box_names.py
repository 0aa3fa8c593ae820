"""Box names are translated outside the engine, per family, and none can be forgotten."""

from django.utils import translation

from scorecard.engine import families
from scorecard.presenters.box_names import BOX_NAMES, CONTEXTS, FAMILY_NAMES, box_name


def test_every_box_of_every_family_has_a_translatable_name_that_is_its_engine_label():
    in_the_engine = {
        (family.key, box.key): box.label
        for family in families.FAMILIES.values()
        for box in family.boxes
    }
    assert set(BOX_NAMES) == set(in_the_engine)
    with translation.override("en"):
        for key, label in in_the_engine.items():
            assert str(BOX_NAMES[key]) == label, key
    assert set(CONTEXTS) == set(FAMILY_NAMES) == set(families.FAMILIES)


def test_one_language_names_a_box_as_each_family_s_pads_do():
    with translation.override("da"):
        assert box_name(families.YAHTZEE.box("full_house")) == "Fuldt hus"
        assert box_name(families.YATZY.box("full_house")) == "Hus"
    with translation.override("sv"):
        assert box_name(families.MAXI.box("villa")) == "Hus"
        assert box_name(families.YATZY.box("full_house")) == "Kåk"


def test_a_german_yahtzee_card_reads_kniffel_s_terms():
    with translation.override("de"):
        names = [box_name(box) for box in families.YAHTZEE.lower_boxes]
    assert names == [
        "Dreierpasch",
        "Viererpasch",
        "Full House",
        "Kleine Straße",
        "Große Straße",
        "Kniffel",
        "Chance",
    ]


def test_swedish_yatzy_boxes_read_as_a_swedish_pad_prints_them():
    with translation.override("sv"):
        names = [box_name(box) for box in families.YATZY.boxes]
    assert names == [
        "Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor", "Ett par", "Två par", "Tretal",
        "Fyrtal", "Liten stege", "Stor stege", "Kåk", "Chans", "Yatzy",
    ]  # fmt: skip

"""A number next to a word of a parameter's name supplies that parameter (supplied._named_number), in
any case, in ASCII and non-ASCII requests alike; without a number, or without the word, it does not."""

from kg_tools.retrieval.supplied import supplied_parameters


def test_a_number_next_to_a_name_word_supplies_it():
    assert supplied_parameters("show me RECIPE 248817 please", [("recipe", "")]) == {"recipe"}
    assert supplied_parameters("book three Tickets for tonight", [("ticket_count", "")]) == {"ticket_count"}
    assert supplied_parameters("Crème brûlée: recipe 248817", [("recipe", "")]) == {"recipe"}  # not ASCII


def test_no_number_or_no_name_word_supplies_nothing():
    assert supplied_parameters("show me a recipe for pancakes", [("recipe", "")]) == set()
    assert supplied_parameters("show me dish 248817", [("recipe", "")]) == set()
    assert supplied_parameters("Crème brûlée, dish 248817", [("recipe", "")]) == set()

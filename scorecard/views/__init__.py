"""Views, a module per screen family; none imports another."""

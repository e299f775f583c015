"""Keeper skills: ``SKILL.md`` folders enabled per room, and the forge (see ``README.md``)."""

"""The bundled stage director (M19): :mod:`lw_director.choose` picks, :mod:`lw_director.plugin` registers."""

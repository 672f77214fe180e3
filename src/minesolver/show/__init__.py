"""Showing boards: in the terminal (:mod:`.terminal`), as pictures and GIFs
(:mod:`.image`), in one palette (:mod:`.palette`) that the web page uses too."""

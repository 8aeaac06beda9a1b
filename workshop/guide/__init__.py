"""The build guide's drawings and tables, made from hardware/*.yaml and the pin maps.

`scripts/make-hardware` writes them (SVGs in hardware/, tables into hardware/README.md
between markers); a test makes them again and compares, so they cannot drift from the
pin maps, the prices or the dimensions. Nothing here runs on the box.
"""

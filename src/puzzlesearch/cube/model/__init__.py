"""The cube model, in reading order: constants -> facelets -> cubie -> coords -> symmetry."""

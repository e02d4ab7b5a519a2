"""The solvers: thistlethwaite (four optimal phases), twophase (Kociemba's, six directions), optimal (IDA*)."""

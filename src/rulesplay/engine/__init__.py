"""The interpreter: compiles a checked ruleset once and runs any number of games from it."""

"""Configuration: the options model and its defaults, config files, the environment's settings."""

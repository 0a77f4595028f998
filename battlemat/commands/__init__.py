"""The `battlemat` subcommands, one module each with `add_arguments(parser)` and `run(args) -> int`;
`battlemat.cli` registers them and imports only the one chosen (DESIGN: commands)."""

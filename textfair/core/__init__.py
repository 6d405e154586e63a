"""What every layer above shares, depending on nothing of textfair's but its errors: rules
and rule sets, the Domain protocol, seeded generators, the word pattern and the machine's
cores. Import from the modules (`textfair.core.rules`, ...); this package re-exports nothing."""

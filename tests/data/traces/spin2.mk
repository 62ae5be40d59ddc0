# Four CPU-bound jobs for `make -j2` (tests/data/traces/README.md).
all: a b c d
a b c d:
	@perl -e '$$i=0; $$i++ while $$i < 1e7'

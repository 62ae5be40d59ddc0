/*
 * main.c - schedlab's entry point; everything else is in cli_main().
 */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}

/* help_table.c — the help texts (see help.h). */
#include "repl/help.h"

const HelpEntry help_table[] = {
    {"print", HELP_BUILTINS, 0, "print(...vs, sep=\" \", end=\"\\n\", file=stdout)",
     "Writes the values, converted with str(), separated by sep and followed by end.",
     "print(1, \"a\", [2])      # 1 a [2]"},
};
const size_t help_table_count = sizeof help_table / sizeof help_table[0];

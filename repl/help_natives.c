/* help_natives.c — the help entries of the built-ins written in C, each
 * written beside its code in stdlib/ (HELP(...), stdlib/help.h) and
 * collected by the build (tools/help-natives.sh into help_natives.inc), and
 * those of the elementwise ops and the activations, the help column of
 * their rows in ops/elementwise.h and ops/activations.h. */
#include "ops/activations.h"
#include "ops/elementwise.h"
#include "repl/help.h"

#define HELP(name_, section_, flags_, signature_, text_, example_)                               \
  {.name = name_, .section = section_, .flags = flags_, .signature = signature_, .text = text_, \
   .example = example_},

/* An elementwise row's help column, HELP_ROW_##help(name): the row macro
 * ends in (name) so that the entry gets its name (NO_HELP: a row not bound). */
#define HELP_ROW_HELP(section_, signature_, text_, example_)                                    \
  {.section = section_, .flags = HELP_TENSOR_METHOD, .signature = signature_, .text = text_,     \
   .example = example_, HELP_ROW_NAME
#define HELP_ROW_NAME(name_) .name = #name_},
#define HELP_ROW_NO_HELP(name_)
#define UNARY_HELP(C, e, name, kernels, result, grad, node, formula, jvp, saves, inplace, bind, help)  \
  HELP_ROW_##help(name)
#define BINARY_HELP(C, e, name, symbol, kernels, result, grad, node, formula, jvp, self, other, res,   \
                    other_name, number_form, number_node, number_saves, bind, help)              \
  HELP_ROW_##help(name)

/* An activation's help column, named nn.functional.NAME. */
#define ACTIVATION_HELP(C, NAME, name, node, formula, inplace, inode, iformula, params, test, help) \
  ACTIVATION_ENTRY_##help(name)
#define ACTIVATION_ENTRY_HELP(signature_, text_, example_)                                       \
  {.section = HELP_NN, .flags = 0, .signature = signature_, .text = text_, .example = example_,  \
   ACTIVATION_ENTRY_NAME
#define ACTIVATION_ENTRY_NAME(name_) .name = "nn.functional." #name_},

const HelpEntry help_natives[] = {
#include "help_natives.inc"
    AG_UNARY_REGISTRY(UNARY_HELP, 0)
    AG_BINARY_REGISTRY(BINARY_HELP, 0)
    AG_ACTIVATION_REGISTRY(ACTIVATION_HELP, 0)
};

const size_t help_natives_count = sizeof help_natives / sizeof help_natives[0];

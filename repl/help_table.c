/* help_table.c — the help texts of the built-ins written in C (see help.h;
 * the names defined in Ag are documented by doc comments in stdlib/NAME.ag).
 *
 * Each entry: name, section, flags, signature, a paragraph, an example.
 * docs/reference.md is generated from it (`ag --help-reference`), and the
 * REPL tests run every example and require each built-in to have an entry,
 * so edit here and regenerate the reference. The elementwise ops' entries
 * are the help column of their rows in ops/elementwise.h.
 */
#include "ops/elementwise.h"
#include "repl/help.h"

/* The entries of the elementwise ops, from the help column of their rows in
 * ops/elementwise.h (NO_HELP: a row not bound). The row macro ends in (name)
 * so that HELP(...) can put the name in the entry. */
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

const HelpEntry help_table[] = {
    {"print", HELP_BUILTINS, 0,
     "print(...vs, sep=\" \", end=\"\\n\", file=stdout, flush=false)",
     "Writes the values, each converted with str(), separated by sep and followed by end. "
     "file=stderr writes to standard error, file=f to a file from open(); flush=true "
     "pushes the output out at once (a progress line seen while a loop runs).",
     "print(\"loss\", 0.25, [1, 2])\n"
     "print(\"no newline\", end=\"\")"},
    {"input", HELP_BUILTINS, 0,
     "input(prompt=\"\")",
     "Writes the prompt, reads one line from standard input and returns it without the "
     "newline; nil at end of input.",
     "let name = input(\"name? \")"},
    {"len", HELP_BUILTINS, 0,
     "len(x)",
     "The number of items of a list, map, string (in bytes) or range, or the size of a "
     "tensor's first dimension.",
     "print(len([1, 2, 3]), len(\"abc\"), len({\"a\": 1}))"},
    {"range", HELP_BUILTINS, 0,
     "range(n) / range(start, stop, step=1)",
     "A lazy sequence of numbers from start (default 0) up to but not including stop, for "
     "`for` loops, len() and indexing.",
     "for i in range(3) { print(i) }\n"
     "print(len(range(0, 10, 2)))"},
    {"enumerate", HELP_BUILTINS, 0,
     "enumerate(xs, start=0)",
     "A lazy iterator of tuples (index, item) for each item of any iterable (a list, string, "
     "map's keys, tensor along dim 0, generator ...), counting from start.",
     "for i, x in enumerate([\"a\", \"b\"]) { print(i, x) }"},
    {"zip", HELP_BUILTINS, 0,
     "zip(...iterables)",
     "A lazy iterator of tuples holding the i-th items of each argument; it stops at the "
     "shortest.",
     "print(list(zip([1, 2], [\"a\", \"b\"])))"},
    {"map", HELP_BUILTINS, 0,
     "map(f, ...iterables)",
     "A lazy iterator of f(x) for each item x (of f(x, y, ...) for several iterables, up "
     "to the shortest).",
     "print(list(map(lambda x: x * 2, [1, 2])), list(map(max, [1, 5], [4, 2])))"},
    {"filter", HELP_BUILTINS, 0,
     "filter(f, iterable)",
     "A lazy iterator of the items for which f(item) is truthy; with f nil, of the truthy "
     "items.",
     "print(list(filter(lambda x: x > 1, [1, 2, 3])), list(filter(nil, [0, 1, \"\"])))"},
    {"dict", HELP_BUILTINS, 0,
     "dict(map_or_pairs, k=v, ...)",
     "A new map: a copy of a map, the (key, value) pairs of an iterable, and/or the "
     "keyword arguments.",
     "print(dict(zip([\"a\", \"b\"], [1, 2])), dict(x=1))"},
    {"sorted", HELP_BUILTINS, 0,
     "sorted(xs, key=nil, reverse=false)",
     "A new sorted list of the items; key is a function giving the value to compare, "
     "reverse sorts descending.",
     "print(sorted([3, 1, 2]), sorted([\"bb\", \"a\"], key=len, reverse=true))"},
    {"str", HELP_BUILTINS, 0,
     "str(v)",
     "The value as a string, as print shows it (an instance's str method when it has one, "
     "else its repr method).",
     "print(str(0.1) + \"!\", str([1, \"a\"]))"},
    {"repr", HELP_BUILTINS, 0,
     "repr(v)",
     "The value as source-like text: strings are quoted, tensors print as PyTorch does, an "
     "instance through its repr method (never its str), else <Point instance>.",
     "print(repr(\"hi\"), repr(1.5))"},
    {"format", HELP_BUILTINS, 0,
     "format(v, spec=\"\")",
     "v formatted with Python's format spec, [[fill]align][sign][z][#][0][width][,|_]"
     "[.precision][type], as f\"{v:spec}\" does; CPython's output. The same engine runs "
     "s.format(...) (fields {}, {0}, {name}, {0[1]}, {p.x}, !r !s, nested {w} in a spec) and "
     "FORMAT % values (printf-style: %d %s %r %f %e %g %x %o %c %%, flags, width, precision, "
     "%(name)s with a map). An instance's format(spec) method is called when it has one.",
     "print(format(1234567, \",\"), format(255, \"#x\"), format(0.256, \".1%\"))\n"
     "print(\"{:>6.2f}|{}\".format(3.14159, \"a\"), \"%05.1f %s\" % (2.25, \"ok\"))"},
    {"num", HELP_BUILTINS, 0,
     "num(s)",
     "Parses a string as a number: an int when it is written as one (\"7\", \"0x1F\"), "
     "else a float (\"2.5\", \"1e-3\", \"inf\"); surrounding blanks allowed. A number "
     "is returned as it is.",
     "print(num(\"2.5\") + 1, num(\"0x1F\"))"},
    {"int", HELP_BUILTINS, 0,
     "int(x)",
     "An int (64-bit): truncates a float toward zero, parses a string of an int, takes "
     "the value of a one-element tensor. inf, nan and floats beyond int64 are errors. "
     "Where a dtype is expected, int means int64 (ones(2, dtype=int), t.to(int)), as "
     "Python's int in PyTorch.",
     "print(int(2.9), int(-2.9), int(\"7\"), int(true), ones(2, dtype=int))"},
    {"type", HELP_BUILTINS, 0,
     "type(v)",
     "The type of v: an instance's class; for other values a built-in type (int, str, "
     "list, dict, set, Tensor, ... ; float and bool equal those dtypes). It prints as "
     "Ag's name of the kind (\"int\" \"string\" \"map\" \"nil\" \"tensor\", the class name) "
     "and equals that name too; type(v).__name__ is Python's name; a built-in type "
     "converts when called (int(\"3\")).",
     "print(type(1), type(1) == int, type(zeros(2)) == Tensor, type(\"a\"), type(\"a\").__name__)"},
    {"dict", HELP_BUILTINS, 0,
     "dict",
     "The type of maps (Python's dict): type({}) == dict, isinstance(m, dict).",
     "print(type({\"a\": 1}) == dict, isinstance({}, dict))"},
    {"callable", HELP_BUILTINS, 0,
     "callable(v)",
     "True when v can be called: a function, a class, a bound method, an instance "
     "whose class has call.",
     "print(callable(print), callable(3))"},
    {"property", HELP_BUILTINS, 0,
     "@property",
     "On a method: reading the name calls it (a getter read as a field); @NAME.setter on a "
     "method of the same name gives the setter. Without a setter, assigning is an error.",
     "class C {\n"
     "  fn init(r) { self._r = r }\n"
     "  @property\n"
     "  fn area() { return 3 * self._r ** 2 }\n"
     "}\n"
     "print(C(2).area)"},
    {"staticmethod", HELP_BUILTINS, 0,
     "@staticmethod",
     "On a method: called without a receiver (no self), from the class or an instance.",
     "class M {\n"
     "  @staticmethod\n"
     "  fn add(a, b) { return a + b }\n"
     "}\n"
     "print(M.add(1, 2))"},
    {"classmethod", HELP_BUILTINS, 0,
     "@classmethod",
     "On a method: called with the class as its first argument (cls), from the class or "
     "an instance, as Python's; no self.",
     "class P {\n"
     "  fn init(x) { self.x = x }\n"
     "  @classmethod\n"
     "  fn zero(cls) { return cls(0) }\n"
     "}\n"
     "print(P.zero().x)"},
    {"id", HELP_BUILTINS, 0,
     "id(x)",
     "An int naming the identity of x: two values have the same id when they are the "
     "same object (two variables holding one tensor), as Python's id.",
     "let t = tensor([1.0])\n"
     "let u = t\n"
     "print(id(t) == id(u), id(t) == id(tensor([1.0])))"},
    {"warn", HELP_BUILTINS, 0,
     "warn(message)",
     "Writes \"FILE:LINE: UserWarning: message\" to standard error, as Python's "
     "warnings.warn; called inside the library (nn, optim), LINE is the script's line "
     "that called it.",
     "warn(\"this learning rate looks large\")"},
    {"isinstance", HELP_BUILTINS, 0,
     "isinstance(v, cls)",
     "True when v is an instance of class cls or of a subclass of it. cls may also be a "
     "built-in type, as in Python: int (true for bools too), float, bool, str, list, dict, "
     "set, tuple, Tensor; or a tuple or list of classes and types (isinstance(x, (int, float))).",
     "class A {}\n"
     "class B : A {}\n"
     "print(isinstance(B(), A), isinstance(1, A))"},
    {"vars", HELP_BUILTINS, 0,
     "vars(obj)",
     "A map of an instance's fields (in the order assigned), or of a module's globals.",
     "class P { fn init() { self.x = 1; self.y = 2 } }\n"
     "print(vars(P()))"},
    {"getattr", HELP_GRAPH, 0,
     "getattr(obj, name, default)",
     "obj.name for a name in a string, on instances, classes, modules and tensors; with a "
     "default, a missing attribute gives it instead of an error (Python's getattr).",
     "class P { fn init() { self.x = 1 } }\n"
     "print(getattr(P(), \"x\"), getattr(P(), \"z\", 0), getattr(nn, \"Linear\"))"},
    {"hasattr", HELP_GRAPH, 0,
     "hasattr(obj, name)",
     "Whether obj.name can be read (a field, a method, a module's global ...).",
     "class P { fn init() { self.x = 1 } }\n"
     "print(hasattr(P(), \"x\"), hasattr(P(), \"y\"))"},
    {"setattr", HELP_GRAPH, 0,
     "setattr(obj, name, value)",
     "obj.name = value for a name in a string (a property's setter runs).",
     "class P {}\n"
     "let p = P()\n"
     "setattr(p, \"w\", 3)\n"
     "print(p.w)"},
    {"delattr", HELP_GRAPH, 0,
     "delattr(obj, name)",
     "Removes an instance's field; a missing one is an error.",
     "class P { fn init() { self.x = 1 } }\n"
     "let p = P()\n"
     "delattr(p, \"x\")\n"
     "print(hasattr(p, \"x\"))"},
    {"source", HELP_GRAPH, 0,
     "source(f)",
     "The Ag source text of a function or class, such as the library's own nn.Linear.",
     "print(source(nn.ReLU))"},
    {"assert", HELP_BUILTINS, 0,
     "assert cond, message   /   assert(cond, message=\"assertion failed\")",
     "Throws an AssertionError with the message when cond is falsy. Python's statement "
     "form evaluates the message only then (and without one the error has none); the "
     "call form is the built-in function, with the same meaning.",
     "assert 1 + 1 == 2, \"arithmetic is broken\"\nassert(1 + 1 == 2, \"arithmetic is broken\")"},
    {"error", HELP_BUILTINS, 0,
     "error(message)",
     "Throws an Error (the base class, as Python's raise Exception(message)) with that "
     "message (catch it with try/catch; e.message reads it). throw ValueError(message) "
     "throws one of Python's classes.",
     "try { error(\"bad input\") } catch e { print(e.message) }"},
    {"Error", HELP_BUILTINS, 0,
     "Error(...args)",
     "The base of every error class (Python's Exception): fields message (also str(e)), "
     "args (the arguments) and traceback. Ag raises its subclasses TypeError ValueError "
     "IndexError KeyError NameError AttributeError ZeroDivisionError RuntimeError "
     "StopIteration ... as Python and PyTorch do; subclass any of them for your own "
     "errors: class ConfigError(ValueError) { }.",
     "try { [1][5] } catch e { print(type(e), isinstance(e, Error)) }"},
    {"ZeroDivisionError", HELP_BUILTINS, 0,
     "ZeroDivisionError",
     "The Error subclass thrown when a number is divided by zero with / // or % "
     "(tensors follow IEEE instead: tensor(1.0) / 0 is inf).",
     "try { 1 / 0 } catch e { print(isinstance(e, ZeroDivisionError), e.message) }"},
    {"Interrupted", HELP_BUILTINS, 0,
     "Interrupted",
     "The Error subclass thrown when Ctrl-C stops a running program; catching it is "
     "possible but rarely wise. Every long operation polls the same Ctrl-C (loops, calls, "
     "tensor kernels and matrix products, backward, sort, file and import reads, "
     "compilation), and one Ctrl-C is thrown once.",
     "print(isinstance(Interrupted(\"x\"), Error))"},
    {"MemoryError", HELP_BUILTINS, 0,
     "MemoryError",
     "The Error subclass thrown when memory runs out: a list, string or map too large to "
     "allocate (a tensor too large fails with an Error naming its size). The program can "
     "catch it and go on; the REPL does. The limit is the machine's physical memory, or "
     "AG_MEMORY_LIMIT=BYTES (suffixes K, M, G; 0: none): the memory of Ag's objects and the "
     "tensors they hold, and the most one tensor may allocate.",
     "try { let s = \"x\" * 10 ** 15 } catch e { print(type(e)) }"},
    {"TypeError", HELP_BUILTINS, 0,
     "TypeError",
     "The Error subclass Ag raises for wrong operand or argument types: 1 + \"a\", len(3), a missing or unexpected argument, a value that is not callable or iterable.",
     "try { 1 + \"a\" } catch TypeError as e { print(e) }"},
    {"ValueError", HELP_BUILTINS, 0,
     "ValueError",
     "The Error subclass Ag raises for a value of the right type that is wrong: int(\"x\"), unpacking the wrong number of items, a bad format spec.",
     "try { int(\"x\") } catch ValueError as e { print(e) }"},
    {"LookupError", HELP_BUILTINS, 0,
     "LookupError",
     "The Error subclass Ag raises for the base of IndexError and KeyError.",
     "try { [][0] } catch LookupError as e { print(type(e)) }"},
    {"IndexError", HELP_BUILTINS, 0,
     "IndexError",
     "The Error subclass Ag raises for an index out of range: of a list, a string or a tensor (PyTorch's \"Dimension out of range\" too).",
     "try { zeros(3)[5] } catch IndexError as e { print(e) }"},
    {"KeyError", HELP_BUILTINS, 0,
     "KeyError",
     "The Error subclass Ag raises for a key missing from a map.",
     "try { {\"a\": 1}[\"b\"] } catch KeyError as e { print(e) }"},
    {"NameError", HELP_BUILTINS, 0,
     "NameError",
     "The Error subclass Ag raises for an undefined variable (with the closest defined name: did you mean `print`?).",
     "try { prnt(1) } catch NameError as e { print(e) }"},
    {"AttributeError", HELP_BUILTINS, 0,
     "AttributeError",
     "The Error subclass Ag raises for a missing field, method or attribute (with the closest name).",
     "try { zeros(2).gard } catch AttributeError as e { print(e) }"},
    {"RuntimeError", HELP_BUILTINS, 0,
     "RuntimeError",
     "The Error subclass Ag raises for most tensor errors (a shape mismatch, as PyTorch), error(message), and what no other class describes.",
     "try { zeros(2) + zeros(3) } catch RuntimeError as e { print(e) }"},
    {"NotImplementedError", HELP_BUILTINS, 0,
     "NotImplementedError",
     "The Error subclass Ag raises for a RuntimeError for what a subclass must define (nn.Module's forward).",
     "try { nn.Module()(1) } catch NotImplementedError as e { print(e) }"},
    {"RecursionError", HELP_BUILTINS, 0,
     "RecursionError",
     "The Error subclass Ag raises for a RuntimeError for a stack overflow (calls nested too deeply).",
     "fn f(n) { return f(n + 1) }\ntry { f(0) } catch RecursionError { print(\"too deep\") }"},
    {"ArithmeticError", HELP_BUILTINS, 0,
     "ArithmeticError",
     "The Error subclass Ag raises for the base of ZeroDivisionError and OverflowError.",
     "try { 1 // 0 } catch ArithmeticError as e { print(type(e)) }"},
    {"OverflowError", HELP_BUILTINS, 0,
     "OverflowError",
     "The Error subclass Ag raises for an ArithmeticError for an int result past 64 bits.",
     "try { 2 ** 63 * 2 } catch OverflowError as e { print(e) }"},
    {"AssertionError", HELP_BUILTINS, 0,
     "AssertionError",
     "The Error subclass Ag raises for assert(false).",
     "try { assert(1 > 2, \"no\") } catch AssertionError as e { print(e) }"},
    {"OSError", HELP_BUILTINS, 0,
     "OSError",
     "The Error subclass Ag raises for a file that cannot be opened, read or written.",
     "try { open(\"/no/such/file\") } catch OSError as e { print(type(e)) }"},
    {"ImportError", HELP_BUILTINS, 0,
     "ImportError",
     "The Error subclass Ag raises for an import that fails (no such file, syntax errors, a cycle).",
     "print(isinstance(ImportError(\"x\"), Error))"},
    {"KeyboardInterrupt", HELP_BUILTINS, 0,
     "KeyboardInterrupt",
     "The Error subclass Ag raises for Python's name for Interrupted (the same class): catch KeyboardInterrupt { } stops on Ctrl-C.",
     "print(KeyboardInterrupt == Interrupted)"},
    {"clock", HELP_BUILTINS, 0,
     "clock()",
     "Seconds from a monotonic clock, for timing code.",
     "let t0 = clock()\n"
     "let dt = clock() - t0\n"
     "print(dt >= 0)"},
    {"exit", HELP_BUILTINS, 0,
     "exit(code=0)",
     "Ends the program with that exit status (in the REPL: ends the session).",
     "if false { exit(3) }"},
    {"min", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "min(...xs) / min(iterable, key=nil, default=...) / min(t, dim=nil, keepdim=false)",
     "The smallest of several values or of the items of any iterable, compared by key(item) "
     "when key is given (the first of equal ones); default for an empty one. On a tensor: the smallest element, or "
     "with dim= torch.return_types.min(values, indices) along that dimension (.values, "
     ".indices; it unpacks as a pair).",
     "print(min(3, 1, 2), min([4, 5]))\n"
     "print(tensor([[1.0, 5.0], [3.0, 2.0]]).min(dim=1))"},
    {"max", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "max(...xs) / max(iterable, key=nil, default=...) / max(t, dim=nil, keepdim=false)",
     "The largest of several values or of the items of any iterable, compared by key(item) "
     "when key is given (the first of equal ones); default for an empty one. On a tensor: the largest element, or "
     "with dim= torch.return_types.max(values, indices) along that dimension (.values, "
     ".indices; it unpacks as a pair).",
     "print(max(3, 1, 2))\n"
     "print(tensor([[1.0, 5.0], [3.0, 2.0]]).max(dim=0))"},
    {"sum", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "sum(list) / sum(list, start) / sum(...xs) / sum(t, dim=nil, keepdim=false)",
     "The sum of a list or of several numbers; sum(list, start) adds the items to start, "
     "as Python's (sum(neurons, bias) of instances with add/radd). On a tensor: the sum of "
     "all elements, or "
     "along dim (a number or a list of dims); keepdim keeps reduced dims as size 1.",
     "print(sum([1, 2, 3]))\n"
     "print(ones(2, 3).sum(dim=0))"},
    {"pi", HELP_BUILTINS, 0,
     "pi",
     "The number pi (3.141592653589793).",
     "print(pi)"},
    {"inf", HELP_BUILTINS, 0,
     "inf",
     "Positive infinity; -inf is negative infinity.",
     "print(inf > 1e308, -inf)"},
    {"nan", HELP_BUILTINS, 0,
     "nan",
     "Not-a-number (never equal to itself).",
     "print(nan == nan)"},
    {"float32", HELP_BUILTINS, 0,
     "float32",
     "The default dtype: 32-bit float. Also spelled float.",
     "print(zeros(2).dtype == float32)"},
    {"float64", HELP_BUILTINS, 0,
     "float64",
     "64-bit float dtype (also spelled double); gradcheck works in it.",
     "print(tensor([1, 2], dtype=float64))"},
    {"int64", HELP_BUILTINS, 0,
     "int64",
     "64-bit integer dtype (also spelled long): labels, indices, arange of integers.",
     "print(arange(3).dtype)"},
    {"int32", HELP_BUILTINS, 0,
     "int32",
     "32-bit integer dtype (PyTorch's torch.int32, torch.int; t.int() converts). "
     "Arithmetic wraps around on overflow as in PyTorch; sum() and prod() of it give "
     "int64.",
     "print(tensor([2147483647], dtype=int32) + 1)"},
    {"int16", HELP_BUILTINS, 0,
     "int16",
     "16-bit integer dtype (also spelled short; t.short() converts). uint8 with int8 "
     "promotes to it.",
     "print(tensor([1], dtype=uint8) + tensor([-1], dtype=int8))"},
    {"short", HELP_BUILTINS, 0,
     "short",
     "Another name for int16; t.short() converts a tensor to int16.",
     "print(tensor([1.7, 300.0]).short())"},
    {"int8", HELP_BUILTINS, 0,
     "int8",
     "8-bit signed integer dtype (t.char() converts; wraps around: 127 + 1 is -128).",
     "print(tensor([127], dtype=int8) + 1)"},
    {"uint8", HELP_BUILTINS, 0,
     "uint8",
     "8-bit unsigned integer dtype (t.byte() converts; images' pixels). Indexing with "
     "a uint8 tensor masks, as with a bool one (deprecated in PyTorch).",
     "print(tensor([250], dtype=uint8) + 10)"},
    {"float16", HELP_BUILTINS, 0,
     "float16",
     "16-bit IEEE float dtype (also spelled half; t.half() converts): 11 significant "
     "bits, largest 65504. Each op computes in float32 and rounds its result to nearest "
     "even, as PyTorch's CPU kernels; it can require gradients.",
     "print(tensor([0.1, 70000.0], dtype=float16))"},
    {"half", HELP_BUILTINS, 0,
     "half",
     "Another name for float16; t.half() converts a tensor to float16.",
     "print(ones(2).half())"},
    {"bfloat16", HELP_BUILTINS, 0,
     "bfloat16",
     "Brain float dtype: float32's range with 8 significant bits (t.bfloat16() "
     "converts). Computed in float32 and rounded, as in PyTorch; NumPy files cannot "
     "hold it (.pt files can).",
     "print(tensor([1.0 / 3], dtype=bfloat16))"},
    {"bool", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "bool(x) / bool (dtype) / t.bool()",
     "Called, the truthiness of x as true or false (as Python's bool). As a value, the "
     "boolean dtype; comparisons give bool tensors. As a method, converts a tensor to "
     "bool.",
     "print(bool([]), bool(2), tensor([0, 2]).bool())"},
    {"float", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "float(x) / float (dtype) / t.float()",
     "Called, x as a float (a number, a string such as \"1e-3\" or \"inf\", a "
     "one-element tensor). As a value, another name for float32 (as PyTorch's "
     "torch.float); as a method, converts a tensor to float32.",
     "print(float(3), float(\"2.5\"), arange(3).float())"},
    {"double", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "double (dtype) / t.double()",
     "Another name for float64; as a method, converts a tensor to float64.",
     "print(ones(2).double())"},
    {"long", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "long (dtype) / t.long()",
     "Another name for int64; as a method, converts a tensor to int64 (truncating).",
     "print(tensor([1.7, -1.7]).long())"},
    {"stdout", HELP_BUILTINS, 0,
     "stdout",
     "The standard output stream, for print(..., file=stdout).",
     "print(\"to stdout\", file=stdout)"},
    {"stderr", HELP_BUILTINS, 0,
     "stderr",
     "The standard error stream: print(..., file=stderr) writes warnings and diagnostics.",
     "print(\"a warning\", file=stderr)"},
    {"args", HELP_BUILTINS, 0,
     "args",
     "The list of command-line arguments given after the script's name (`ag train.ag 10` "
     "gives [\"10\"]).",
     "print(len(args) >= 0)"},
    {"Tensor", HELP_TENSORS, 0,
     "Tensor(data) / Tensor(...sizes)",
     "PyTorch's torch.Tensor: the type of every tensor, for isinstance(x, Tensor), and "
     "the legacy constructor: Tensor([1, 2]) is tensor([1, 2], dtype=float32), "
     "Tensor(2, 3) a float32 tensor of zeros of that shape (PyTorch leaves it "
     "uninitialised).",
     "print(isinstance(zeros(2), Tensor), Tensor([1, 2]))"},
    {"is_tensor", HELP_TENSORS, 0,
     "is_tensor(x)",
     "Whether x is a tensor (PyTorch's torch.is_tensor).",
     "print(is_tensor(zeros(1)), is_tensor([1]))"},
    {"from_numpy", HELP_TENSORS, 0,
     "from_numpy(a)",
     "PyTorch's torch.from_numpy: the tensor that shares a's storage. NumPy's arrays are "
     "Ag's tensors (see numpy), so it is a itself; a tensor that requires grad is "
     "PyTorch's error (an array holds no graph).",
     "let a = np.zeros(2)\n"
     "from_numpy(a)[0] = 1\n"
     "print(a)"},
    {"np", HELP_BUILTINS, 0,
     "np",
     "The numpy module under NumPy's usual name (:help numpy).",
     "print(np.pi)"},
    {"numpy", HELP_BUILTINS, 0,
     "numpy / np",
     "The part of NumPy that PyTorch lessons use (also the global np and import numpy as "
     "np). Its arrays are Ag tensors with NumPy's default dtypes: float64 for floats, "
     "int64 for ints. array(x, dtype=nil) asarray float32 float64 int64 bool_ pi e inf "
     "nan; exp log log2 log10 log1p expm1 sqrt sin cos tan tanh arctan floor ceil abs "
     "sign square (a number for a number); maximum minimum clip dot matmul reshape "
     "transpose concatenate stack; sum mean max min argmax argmin (axis=); zeros ones "
     "empty full eye zeros_like ones_like arange linspace; save(file, a) load(file) (.npy); np.random (NumPy's legacy "
     "RandomState: seed rand randn random random_sample normal uniform, NumPy's numbers "
     "for a seed). from_numpy(a) and t.numpy() share the storage.",
     "np.random.seed(0)\n"
     "print(np.array([1.5, 2]), np.exp(1.0), np.random.rand())"},
    {"set_printoptions", HELP_TENSORS, 0,
     "set_printoptions(precision=nil, threshold=nil, edgeitems=nil, linewidth=nil, profile=nil, sci_mode=nil)",
     "PyTorch's torch.set_printoptions for every tensor printed after it: digits after "
     "the point (default 4, at most 30), the element count above which a tensor is "
     "summarised with ... (1000; inf for never), the items kept at each end (3), the "
     "line width (80), profile=\"default\", \"short\" or \"full\" (applied first), sci_mode "
     "true/false to force or forbid scientific notation (nil or not given: chosen per "
     "tensor; PyTorch resets it on every call). Another option not given keeps its value.",
     "set_printoptions(precision=2)\n"
     "print(tensor([1.23456]))\n"
     "set_printoptions(profile=\"default\")"},
    {"torch", HELP_BUILTINS, 0,
     "torch",
     "PyTorch's namespace, so that scripts written for PyTorch find their names: "
     "`import torch`, `import torch.nn as nn`, `from torch.utils.data import "
     "DataLoader` bind Ag's built-ins, and torch.X is the built-in X (torch.randn is "
     "randn, torch.nn is nn, torch.float32, torch.cuda, torch.backends ...). "
     "torch.Size(xs) is the list of ints that shapes are in Ag.",
     "import torch\n"
     "print(torch.zeros(2, 3).shape == torch.Size([2, 3]), torch.cuda.is_available())"},
    {"cuda", HELP_BUILTINS, 0,
     "cuda",
     "PyTorch's torch.cuda on a machine without a GPU (Ag computes on the CPU): "
     "is_available() is false, device_count() 0, manual_seed(s) and manual_seed_all(s) "
     "do nothing, as in PyTorch without CUDA.",
     "print(cuda.is_available(), cuda.device_count())"},
    {"backends", HELP_BUILTINS, 0,
     "backends",
     "PyTorch's torch.backends: backends.mps.is_available() and is_built() are false; "
     "backends.cudnn has the flags deterministic, benchmark and enabled, which may be "
     "set and change nothing.",
     "print(backends.mps.is_available())\n"
     "backends.cudnn.deterministic = true"},
    {"random", HELP_BUILTINS, 0,
     "random",
     "Python's random module with CPython 3.11's numbers: after random.seed(n) (n an int or "
     "a float), random() uniform getrandbits randrange randint choice choices(population, "
     "weights=nil, cum_weights=nil, k=1) shuffle sample(population, k, counts=nil) "
     "gauss normalvariate expovariate triangular lognormvariate gammavariate "
     "betavariate paretovariate weibullvariate vonmisesvariate draw what CPython draws "
     "(its Mersenne Twister and Lib/random.py's algorithms); getstate() and "
     "setstate(s). Its own generator, apart from the tensors' (manual_seed); unseeded, "
     "it starts from the OS's entropy, as CPython's. random.Random(seed) is a generator "
     "of its own with these functions as methods.",
     "random.seed(0)\n"
     "print(random.randint(1, 6), random.choice([\"a\", \"b\"]))"},
    {"math", HELP_BUILTINS, 0,
     "math",
     "Python's math module: pi e tau inf nan; floor ceil trunc (ints); sqrt exp exp2 "
     "expm1 log(x, base=e) log2 log10 log1p pow; sin cos tan asin acos atan atan2 sinh "
     "cosh tanh asinh acosh atanh hypot(...xs) dist degrees radians; fabs fmod "
     "remainder copysign ldexp frexp modf (pairs as lists) nextafter ulp cbrt; isnan "
     "isinf isfinite isclose(a, b, rel_tol=1e-09, abs_tol=0.0); factorial comb perm "
     "gcd lcm isqrt (64-bit ints: larger is an integer overflow); prod(xs, start=1) "
     "fsum erf erfc gamma lgamma. A domain error (sqrt(-1), log(0)) is \"math domain "
     "error\", an overflow \"math range error\", as in CPython.",
     "print(math.sqrt(2), math.floor(2.7), math.comb(5, 2), math.log(8, 2))"},
    {"time", HELP_BUILTINS, 0,
     "time",
     "Python's time module: time() (seconds since the epoch, a float), time_ns(), "
     "perf_counter() and monotonic() (a monotonic clock, as clock()), process_time(), "
     "sleep(secs) (Ctrl-C interrupts it).",
     "let t0 = time.perf_counter()\n"
     "time.sleep(0.01)\n"
     "print(time.perf_counter() - t0 >= 0.01)"},
    {"string", HELP_BUILTINS, 0,
     "string",
     "Python's string module: ascii_letters ascii_lowercase ascii_uppercase digits "
     "hexdigits octdigits punctuation whitespace printable, and capwords(s, sep=nil).",
     "print(string.ascii_lowercase[:5], string.digits)"},
    {"collections", HELP_BUILTINS, 0,
     "collections",
     "Python's collections: Counter(iterable) (c[k] is 0 when missing; most_common(n), "
     "update, subtract, elements, total, + - | &), defaultdict(factory) (a missing key "
     "gets factory()), OrderedDict (move_to_end, popitem), namedtuple(name, fields, "
     "defaults=nil) (a class: fields by name and index, printed Point(x=1, y=2); built "
     "positionally), deque(iterable, maxlen=nil) (append appendleft pop popleft extend "
     "extendleft rotate, dropping from the other end past maxlen). most_common gives "
     "(key, count) tuples, as Python's.",
     "let c = collections.Counter(\"abracadabra\")\n"
     "print(c.most_common(2))\n"
     "let Point = collections.namedtuple(\"Point\", \"x y\")\n"
     "print(Point(1, 2))"},
    {"itertools", HELP_BUILTINS, 0,
     "itertools",
     "Python's itertools. Lazy iterators (for, list(), next() take one item at a "
     "time): count(start=0, step=1) cycle repeat(x, times=nil) chain(...its) "
     "chain.from_iterable islice(it, stop) / islice(it, start, stop, step) "
     "accumulate(it, func=nil, initial=nil) zip_longest takewhile dropwhile "
     "filterfalse compress starmap pairwise. Built at once: product(...its) "
     "permutations(it, r=nil) combinations(it, r) combinations_with_replacement "
     "groupby(it, key=nil). Tuples are lists; until Ag has keyword-only parameters "
     "after a rest parameter, product(..., repeat=n) is product_repeat(n, ...its) and "
     "zip_longest(..., fillvalue=v) is zip_longest_fill(v, ...its).",
     "print(list(itertools.islice(itertools.count(10), 3)))\n"
     "print(list(itertools.product(\"ab\", [1, 2])))"},
    {"sys", HELP_BUILTINS, 0,
     "sys",
     "Python's sys: argv (the script's path, then its arguments; args without the "
     "path), exit(code=nil) (an int is the exit status; another value is printed to "
     "stderr and the status is 1), stdout, stderr, maxsize, platform.",
     "print(sys.maxsize)"},
    {"gc", HELP_BUILTINS, 0,
     "gc",
     "Python's gc, the part a script needs: collect() runs the collector now and returns "
     "how many objects it freed. A tensor nothing refers to any more keeps its memory "
     "until a collection (the collector also runs by itself as memory grows), so call it "
     "before reading autograd.graph.memory_allocated() to count live tensors only.",
     "let t = zeros(1000)\n"
     "t = nil\n"
     "print(gc.collect() >= 1)"},
    {"os", HELP_BUILTINS, 0,
     "os",
     "Python's os, the parts scripts use: getcwd(), getenv(name, default=nil), sep, "
     "and os.path: exists isfile isdir isabs join basename dirname split splitext "
     "abspath normpath, with POSIX paths (pairs as lists).",
     "print(os.path.join(\"data\", \"x.csv\"), os.path.basename(\"/tmp/a.txt\"))"},
    {"unicodedata", HELP_BUILTINS, 0,
     "unicodedata",
     "Python's unicodedata on utf8proc: normalize(form, s) and is_normalized(form, s) for "
     "\"NFC\", \"NFD\", \"NFKC\", \"NFKD\"; category(c) (\"Lu\", \"Mn\" ...), "
     "combining(c), mirrored(c) of one character; unidata_version. A build without utf8proc "
     "says that its functions need it.",
     "print(unicodedata.normalize(\"NFD\", \"\\u{e9}\") == \"e\\u{301}\", unicodedata.category(\"A\"))"},
    {"nn", HELP_BUILTINS, 0,
     "nn",
     "The built-in module of layers and losses (written in Ag): nn.Module, nn.Linear, "
     "nn.MSELoss, ...",
     "print(type(nn))"},
    {"nn.init", HELP_BUILTINS, 0,
     "nn.init",
     "How layers fill their parameters, PyTorch 1.13's formulas and draw order: "
     "calculate_gain(nonlinearity, param=nil), _calculate_fan_in_and_fan_out(t), "
     "uniform_(t, a=0, b=1), normal_(t, mean=0, std=1), constant_(t, val), ones_, zeros_, "
     "eye_, xavier_uniform_(t, gain=1), xavier_normal_, kaiming_uniform_(t, a=0, "
     "mode=\"fan_in\", nonlinearity=\"leaky_relu\"), kaiming_normal_, trunc_normal_(t, "
     "mean=0, std=1, a=-2, b=2), orthogonal_(t, gain=1). Each fills t in place "
     "without recording a graph and returns it.",
     "manual_seed(0)\n"
     "print(nn.init.kaiming_uniform_(zeros(2, 3), a=sqrt(5)))"},
    {"optim", HELP_BUILTINS, 0,
     "optim",
     "The built-in module of optimizers: optim.SGD, optim.Adam, optim.AdamW, optim.RMSprop, "
     "optim.Adagrad, and optim.lr_scheduler.",
     "print(type(optim))"},
    {"progress", HELP_BUILTINS, 0,
     "progress(iterable, desc=nil, total=nil)",
     "Wraps a list, range, DataLoader or any iterable for a `for` loop and draws a "
     "progress bar on standard error as the items are taken, as Python's tqdm: desc, "
     "percent, bar, count/total, elapsed and time left, rate in items a second; "
     "redrawn at most 10 times a second, the line ended when the items run out. total "
     "defaults to len(iterable) (none: count and rate only). In a notebook the bar is "
     "an output of the cell updated in place (an HTML progress bar with the same "
     "figures), shown stopped when an interrupt or error ends the loop. Elsewhere, when "
     "standard error is not a terminal (a pipe, a file, a test) it draws nothing and "
     "returns the iterable itself.",
     "let total = 0\n"
     "for x in progress(range(100), desc=\"sum\") { total += x }\n"
     "print(total)"},
    {"utils", HELP_BUILTINS, 0,
     "utils",
     "PyTorch's torch.utils: the module that holds utils.data (datasets and batch "
     "loading) and utils.checkpoint (activation checkpointing). PyTorch's `from torch.utils.data import DataLoader` is "
     "`utils.data.DataLoader` here, or `let data = utils.data` then `data.DataLoader`.",
     "let data = utils.data\n"
     "print(len(data.TensorDataset(zeros(5, 2))))"},
    {"autograd", HELP_BUILTINS, 0,
     "autograd",
     "The built-in module of autograd functions: autograd.grad, jacobian, hessian, "
     "gradcheck, ...",
     "print(type(autograd))"},
    {"StopIteration", HELP_BUILTINS, 0,
     "StopIteration(message=\"\")",
     "The Error subclass an iterator's next() throws when it has no more items; `for` and "
     "next(it, default) stop on it (SPEC §4's iteration protocol).",
     "class Count {\n"
     "  fn init(n) { self.i = 0; self.n = n }\n"
     "  fn iter() { return self }\n"
     "  fn next() {\n"
     "    if self.i == self.n { throw StopIteration() }\n"
     "    self.i += 1\n"
     "    return self.i\n"
     "  }\n"
     "}\n"
     "for k in Count(3) { print(k) }"},
    {"NotImplemented", HELP_BUILTINS, 0,
     "NotImplemented",
     "What an operator method returns when it cannot handle the other operand: Ag then "
     "tries the other operand's reflected method (radd for +, ...), else reports the "
     "unsupported operands.",
     "class Meters {\n"
     "  fn init(m) { self.m = m }\n"
     "  fn add(o) { return Meters(self.m + o.m) if isinstance(o, Meters) else NotImplemented }\n"
     "  fn radd(o) { return Meters(self.m + o) }\n"
     "}\n"
     "print((Meters(1) + Meters(2)).m, (5 + Meters(1)).m)"},
    {"Ellipsis", HELP_BUILTINS, 0,
     "Ellipsis",
     "The value of `...` in an index: it stands for all the dimensions not named, as in "
     "PyTorch (t[..., 0] is the first column of the last dimension).",
     "let t = arange(6).reshape(2, 3)\n"
     "print(t[..., 0], Ellipsis)"},
    {"list", HELP_BUILTINS, 0,
     "list(iterable=[])",
     "A new list of the items of any iterable: a list (copied), string (characters), map "
     "(keys), set, range, tensor (along dim 0) or an instance with iter().",
     "print(list(\"ab\"), list(range(3)), list({1, 2}))"},
    {"tuple", HELP_BUILTINS, 0,
     "tuple(iterable=[])",
     "A tuple of the items of any iterable. Tuples are Python's: (1, 2), (x,) and (); "
     "immutable, hashable (map keys, set members), indexed, sliced and compared as lists; "
     "`a, b = t` unpacks one.",
     "print(tuple([1, 2]), (1,), ())\n"
     "let counts = {}\ncounts[(1, 2)] = 3\nprint(counts[(1, 2)])"},
    {"divmod", HELP_BUILTINS, 0,
     "divmod(a, b)",
     "The tuple (a // b, a % b), as Python's.",
     "let q, r = divmod(17, 5)\nprint(q, r)"},
    {"set", HELP_BUILTINS, 0,
     "set(iterable=[])",
     "A new set of the items of an iterable (duplicates dropped, first occurrence's order "
     "kept). Literals: {1, 2}; the empty set is set(), since {} is an empty map. Members "
     "are strings, numbers, booleans, nil or instances (by identity).",
     "let s = set([3, 1, 3])\n"
     "print(s, len(s), 1 in s, {1, 2} - {2})"},
    {"reversed", HELP_BUILTINS, 0,
     "reversed(xs)",
     "A new list of the items of xs in reverse order.",
     "print(reversed([1, 2, 3]), reversed(\"ab\"))"},
    {"any", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "any(xs) / any(t, dim=nil)",
     "True when some item of xs is truthy (false for an empty xs); it stops at the first "
     "one. On a tensor: PyTorch's any, a bool tensor (t.any() too).",
     "print(any([0, \"\", 3]), any([]), any(tensor([0, 1])))"},
    {"all", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "all(xs) / all(t, dim=nil)",
     "True when every item of xs is truthy (true for an empty xs); it stops at the first "
     "falsy one. On a tensor: PyTorch's all, a bool tensor (t.all() too).",
     "print(all([1, \"a\"]), all([]), all(tensor([0, 1])))"},
    {"iter", HELP_BUILTINS, 0,
     "iter(xs)",
     "An iterator over xs: its next() gives the items one by one, then throws "
     "StopIteration. An instance's iter() method is called.",
     "let it = iter([1, 2])\n"
     "print(next(it), next(it), next(it, \"done\"))"},
    {"next", HELP_BUILTINS, 0,
     "next(it, default)",
     "The next item of an iterator (it.next()); past the end, default when given, else "
     "StopIteration is thrown.",
     "let it = iter(\"ab\")\n"
     "print(next(it), next(it), next(it, nil))"},
    {"ord", HELP_BUILTINS, 0,
     "ord(c)",
     "The Unicode code point of a one-character string.",
     "print(ord(\"a\"), ord(\"é\"))"},
    {"chr", HELP_BUILTINS, 0,
     "chr(code)",
     "The one-character string of a Unicode code point (0 to 0x10FFFF).",
     "print(chr(97), chr(8364))"},
    {"open", HELP_BUILTINS, 0,
     "open(path, mode=\"r\")",
     "A text file. \"r\" reads: read(), readline(), readlines(), and `for line in f`; only "
     "a regular file of at most 64 MiB. \"w\" writes and \"a\" appends: write(s), and "
     "print(..., file=f); the text goes to a temporary file beside path that close() "
     "renames over it, so an interrupted run never leaves half a file (a file left open "
     "is renamed when the program ends without an uncaught error, else dropped). Use "
     "`with open(path, \"w\") as f { }` to close it on every way out.",
     "with open(\"/tmp/ag_help_open.txt\", \"w\") as f { f.write(\"a\\nb\\n\") }\n"
     "for line in open(\"/tmp/ag_help_open.txt\") { print(line.strip()) }"},
    {"device", HELP_BUILTINS, 0,
     "device(name)",
     "PyTorch's torch.device: Ag computes on the CPU only, so \"cpu\" is the one device "
     "(returned as is); any other is an error. Tensor functions take device=\"cpu\", and "
     "t.to(\"cpu\"), t.cpu(), module.to(\"cpu\") are the tensor or module itself.",
     "let dev = device(\"cpu\")\n"
     "print(zeros(2, device=dev).device)"},
    {"list.append", HELP_METHODS, 0,
     "xs.append(v)",
     "Adds v at the end of the list (in place); returns nil.",
     "let xs = [1]\n"
     "xs.append(2)\n"
     "print(xs)"},
    {"list.pop", HELP_METHODS, 0,
     "xs.pop(i=-1)",
     "Removes and returns the item at index i (the last by default).",
     "let xs = [1, 2, 3]\n"
     "print(xs.pop(), xs.pop(0), xs)"},
    {"list.insert", HELP_METHODS, 0,
     "xs.insert(i, v)",
     "Inserts v before index i.",
     "let xs = [1, 3]\n"
     "xs.insert(1, 2)\n"
     "print(xs)"},
    {"list.extend", HELP_METHODS, 0,
     "xs.extend(other)",
     "Appends every item of another list.",
     "let xs = [1]\n"
     "xs.extend([2, 3])\n"
     "print(xs)"},
    {"list.index", HELP_METHODS, 0,
     "xs.index(v)",
     "The index of the first item equal to v; an error if there is none.",
     "print([\"a\", \"b\"].index(\"b\"))"},
    {"list.contains", HELP_METHODS, 0,
     "xs.contains(v)",
     "True when an item equals v (the same as `v in xs`).",
     "print([1, 2].contains(2), 3 in [1, 2])"},
    {"list.copy", HELP_METHODS, 0,
     "xs.copy()",
     "A shallow copy of the list.",
     "let a = [1, 2]\n"
     "let b = a.copy()\n"
     "b.append(3)\n"
     "print(a, b)"},
    {"list.reverse", HELP_METHODS, 0,
     "xs.reverse()",
     "Reverses the list in place.",
     "let xs = [1, 2, 3]\n"
     "xs.reverse()\n"
     "print(xs)"},
    {"list.sort", HELP_METHODS, 0,
     "xs.sort(key=nil, reverse=false)",
     "Sorts the list in place (see sorted() for a new list).",
     "let xs = [3, 1, 2]\n"
     "xs.sort()\n"
     "print(xs)"},
    {"map.keys", HELP_METHODS, 0,
     "m.keys()",
     "A list of the keys, in insertion order.",
     "print({\"a\": 1, \"b\": 2}.keys())"},
    {"map.values", HELP_METHODS, 0,
     "m.values()",
     "A list of the values, in insertion order.",
     "print({\"a\": 1, \"b\": 2}.values())"},
    {"map.items", HELP_METHODS, 0,
     "m.items()",
     "A list of [key, value] pairs: `for k, v in m.items() { }`.",
     "for k, v in {\"lr\": 0.1}.items() { print(k, v) }"},
    {"map.get", HELP_METHODS, 0,
     "m.get(key, default=nil)",
     "The value for key, or default when the key is missing (m[key] would be an error).",
     "print({\"a\": 1}.get(\"b\", 0))"},
    {"map.has", HELP_METHODS, 0,
     "m.has(key)",
     "True when the map holds key (the same as `key in m`).",
     "print({\"a\": 1}.has(\"a\"))"},
    {"map.remove", HELP_METHODS, 0,
     "m.remove(key)",
     "Removes key and returns its value.",
     "let m = {\"a\": 1, \"b\": 2}\n"
     "m.remove(\"a\")\n"
     "print(m)"},
    {"map.copy", HELP_METHODS, 0,
     "m.copy()",
     "A shallow copy of the map.",
     "print({\"a\": 1}.copy())"},
    {"str.split", HELP_METHODS, 0,
     "s.split(sep=nil)",
     "A list of the parts between occurrences of sep; without sep, splits on runs of "
     "blanks.",
     "print(\"a,b,c\".split(\",\"), \" x  y \".split())"},
    {"str.format", HELP_METHODS, 0,
     "s.format(...args, **kwargs)",
     "Python's str.format: each {} / {0} / {name} field is replaced by an argument, "
     "formatted with its spec after ':' (see format) and converted first with !r or !s; "
     "{0[1]} and {p.x} index and read fields, {{ and }} are braces, and a spec may hold "
     "fields of its own ({:{w}.2f}).",
     "print(\"{} items, {:.1%} done, {name:>6}|\".format(3, 0.5, name=\"ada\"))"},
    {"str.join", HELP_METHODS, 0,
     "sep.join(list)",
     "The strings of the list joined with sep between them.",
     "print(\", \".join([\"a\", \"b\"]))"},
    {"str.strip", HELP_METHODS, 0,
     "s.strip()",
     "The string without leading and trailing blanks.",
     "print(\"[\" + \"  hi \".strip() + \"]\")"},
    {"str.lstrip", HELP_METHODS, 0,
     "s.lstrip()",
     "The string without leading blanks.",
     "print(\"  hi\".lstrip())"},
    {"str.rstrip", HELP_METHODS, 0,
     "s.rstrip()",
     "The string without trailing blanks.",
     "print(\"hi  \".rstrip() + \"!\")"},
    {"str.upper", HELP_METHODS, 0,
     "s.upper()",
     "An upper-case copy (ASCII letters).",
     "print(\"relu\".upper())"},
    {"str.lower", HELP_METHODS, 0,
     "s.lower()",
     "A lower-case copy (ASCII letters).",
     "print(\"ReLU\".lower())"},
    {"str.replace", HELP_METHODS, 0,
     "s.replace(old, new)",
     "A copy with every occurrence of old replaced by new.",
     "print(\"a-b-c\".replace(\"-\", \"+\"))"},
    {"str.find", HELP_METHODS, 0,
     "s.find(sub)",
     "The byte index of the first occurrence of sub, or -1.0",
     "print(\"hello\".find(\"ll\"))"},
    {"str.startswith", HELP_METHODS, 0,
     "s.startswith(prefix)",
     "True when the string begins with prefix.",
     "print(\"model.pt\".startswith(\"model\"))"},
    {"str.endswith", HELP_METHODS, 0,
     "s.endswith(suffix)",
     "True when the string ends with suffix.",
     "print(\"w.npy\".endswith(\".npy\"))"},
    {"list.count", HELP_METHODS, 0,
     "xs.count(v)",
     "How many items equal v.",
     "print([1, 2, 1].count(1))"},
    {"list.remove", HELP_METHODS, 0,
     "xs.remove(v)",
     "Removes the first item equal to v; an error if there is none.",
     "let xs = [1, 2, 1]\n"
     "xs.remove(1)\n"
     "print(xs)"},
    {"map.pop", HELP_METHODS, 0,
     "m.pop(key, default)",
     "Removes key and returns its value; when key is missing, default if given, else an "
     "error.",
     "let m = {\"a\": 1}\n"
     "print(m.pop(\"a\"), m.pop(\"b\", 0), m)"},
    {"map.update", HELP_METHODS, 0,
     "m.update(other)",
     "Sets every entry of the map other into m, in other's order.",
     "let m = {\"a\": 1}\n"
     "m.update({\"b\": 2, \"a\": 3})\n"
     "print(m)"},
    {"str.splitlines", HELP_METHODS, 0,
     "s.splitlines()",
     "The lines of s without their line ends (\\n, \\r\\n or \\r).",
     "print(\"a\\nb\\r\\nc\".splitlines())"},
    {"str.count", HELP_METHODS, 0,
     "s.count(sub)",
     "How many non-overlapping times sub occurs in s.",
     "print(\"banana\".count(\"an\"))"},
    {"str.isdigit", HELP_METHODS, 0,
     "s.isdigit()",
     "True when s is not empty and all its characters are ASCII digits.",
     "print(\"42\".isdigit(), \"4a\".isdigit())"},
    {"str.isalpha", HELP_METHODS, 0,
     "s.isalpha()",
     "True when s is not empty and all its characters are ASCII letters.",
     "print(\"abc\".isalpha(), \"a1\".isalpha())"},
    {"str.isspace", HELP_METHODS, 0,
     "s.isspace()",
     "True when s is not empty and all its characters are blanks.",
     "print(\" \\t\".isspace(), \"\".isspace())"},
    {"set.add", HELP_METHODS, 0,
     "s.add(v)",
     "Adds v to the set (nothing happens when it is there already).",
     "let s = {1}\n"
     "s.add(2)\n"
     "s.add(1)\n"
     "print(s)"},
    {"set.remove", HELP_METHODS, 0,
     "s.remove(v)",
     "Removes v; an error when it is not in the set (see discard).",
     "let s = {1, 2}\n"
     "s.remove(1)\n"
     "print(s)"},
    {"set.discard", HELP_METHODS, 0,
     "s.discard(v)",
     "Removes v when it is in the set.",
     "let s = {1}\n"
     "s.discard(5)\n"
     "print(s)"},
    {"set.contains", HELP_METHODS, 0,
     "s.contains(v)",
     "True when v is in the set (the same as `v in s`).",
     "print({1, 2}.contains(2))"},
    {"set.union", HELP_METHODS, 0,
     "s.union(other)",
     "A new set of the members of s, then those of the iterable other (also s | other "
     "for two sets).",
     "print({1, 2}.union([2, 3]))"},
    {"set.intersection", HELP_METHODS, 0,
     "s.intersection(other)",
     "A new set of the members of s that are also in the iterable other (also s & other "
     "for two sets).",
     "print({1, 2, 3}.intersection({2, 3, 4}))"},
    {"set.difference", HELP_METHODS, 0,
     "s.difference(other)",
     "A new set of the members of s that are not in the iterable other (also s - other "
     "for two sets; s -= other removes them from s).",
     "print({1, 2, 3}.difference([2]), {1, 2} - {1})"},
    {"set.copy", HELP_METHODS, 0,
     "s.copy()",
     "A shallow copy of the set.",
     "print({1, 2}.copy())"},
    {"set.clear", HELP_METHODS, 0,
     "s.clear()",
     "Removes every member.",
     "let s = {1, 2}\n"
     "s.clear()\n"
     "print(s)"},
    {"tensor", HELP_TENSORS, 0,
     "tensor(data, dtype=nil, requires_grad=false, device=\"cpu\")",
     "A new tensor from a number, nested lists or another tensor (copied). Numbers give "
     "float32 and booleans bool unless dtype= says otherwise.",
     "print(tensor([[1, 2], [3, 4]]))\n"
     "print(tensor(3.5, requires_grad=true))"},
    {"zeros", HELP_TENSORS, 0,
     "zeros(...shape, dtype=float32, requires_grad=false)",
     "A tensor of zeros; the shape is given as numbers or as one list, or as size= "
     "(zeros, ones, empty, rand, randn and randint take it). Everywhere a function takes "
     "dim= or keepdim=, axis= and keepdims= are accepted too, as PyTorch's NumPy "
     "spellings.",
     "print(zeros(2, 3).shape, zeros([2]))"},
    {"ones", HELP_TENSORS, 0,
     "ones(...shape, dtype=float32, requires_grad=false)",
     "A tensor of ones; the shape is given as numbers or as one list.",
     "print(ones(2, 2))"},
    {"empty", HELP_TENSORS, 0,
     "empty(...shape, dtype=float32, requires_grad=false)",
     "A tensor to be filled, e.g. by uniform_ or normal_ (torch.empty). PyTorch leaves its "
     "elements uninitialised; Ag's are zeros.",
     "print(empty([], dtype=float64).uniform_(-1, 1).shape, empty(2, 3).shape)"},
    {"empty_like", HELP_TENSORS, 0,
     "empty_like(t, dtype=nil, requires_grad=false)",
     "empty with the shape and dtype of t (its elements zeros, see empty).",
     "print(empty_like(ones(2, 3)).shape)"},
    {"full", HELP_TENSORS, 0,
     "full(shape, value, dtype=nil, requires_grad=false)",
     "A tensor of the given shape filled with value.",
     "print(full([2, 2], 7))"},
    {"zeros_like", HELP_TENSORS, 0,
     "zeros_like(t, dtype=nil, requires_grad=false)",
     "Zeros with the shape and dtype of t.",
     "print(zeros_like(ones(2, 3)).shape)"},
    {"ones_like", HELP_TENSORS, 0,
     "ones_like(t, dtype=nil, requires_grad=false)",
     "Ones with the shape and dtype of t.",
     "print(ones_like(zeros(2)))"},
    {"full_like", HELP_TENSORS, 0,
     "full_like(t, value, dtype=nil, requires_grad=false)",
     "A tensor shaped like t filled with value.",
     "print(full_like(zeros(2), 5))"},
    {"rand", HELP_TENSORS, 0,
     "rand(...shape, dtype=float32, requires_grad=false, generator=nil)",
     "Uniform random numbers in [0, 1): PyTorch's values for the same seed.",
     "manual_seed(0)\n"
     "print(rand(2).shape)"},
    {"randn", HELP_TENSORS, 0,
     "randn(...shape, dtype=float32, requires_grad=false, generator=nil)",
     "Standard normal random numbers (PyTorch's values for the same seed).",
     "manual_seed(0)\n"
     "let w = randn(3, 2, requires_grad=true)\n"
     "print(w.shape)"},
    {"rand_like", HELP_TENSORS, 0,
     "rand_like(t, dtype=nil, requires_grad=false)",
     "Uniform random numbers shaped like t.",
     "print(rand_like(zeros(2, 2)).shape)"},
    {"randn_like", HELP_TENSORS, 0,
     "randn_like(t, dtype=nil, requires_grad=false)",
     "Standard normal random numbers shaped like t.",
     "print(randn_like(zeros(3)).shape)"},
    {"randint", HELP_TENSORS, 0,
     "randint(low, high, shape, dtype=int64, generator=nil)",
     "Random integers in [low, high) of the given shape (a list).",
     "print(randint(0, 10, [4]).dtype)"},
    {"randperm", HELP_TENSORS, 0,
     "randperm(n, dtype=int64, generator=nil)",
     "A random permutation of 0 .. n-1 (for shuffling a dataset).",
     "print(sorted(randperm(4).tolist()))"},
    {"normal", HELP_TENSORS, 0,
     "normal(mean, std, size) / normal(mean_t, std=1.0) / normal(mean, std_t) / normal(mean_t, std_t); generator=nil",
     "Normal random numbers, PyTorch's values for the same seed. With numbers mean and std, "
     "a tensor of the given size (dtype=, requires_grad= as zeros); with a tensor mean "
     "and/or std, one sample per element of their (broadcast) shape, in its dtype (the "
     "result records no history).",
     "manual_seed(0)\n"
     "print(normal(0.0, 1.0, [2]), normal(tensor([0.0, 10.0]), 0.1))"},
    {"LongTensor", HELP_TENSORS, 0,
     "LongTensor(data) / LongTensor(...shape) / FloatTensor(...) / DoubleTensor(...)",
     "PyTorch's legacy constructors: a list converts to int64 (floats truncated), float32 "
     "or float64; numbers give a tensor of that shape (zeros: Ag leaves nothing "
     "uninitialised); no argument an empty one; a tensor of the same dtype comes back "
     "as it is.",
     "print(LongTensor([1.7, 2.2]), FloatTensor(2, 3).shape, DoubleTensor().shape)"},
    {"FloatTensor", HELP_TENSORS, 0,
     "FloatTensor(data) / FloatTensor(...shape)",
     "LongTensor's float32 twin.",
     "print(FloatTensor([1, 2]), FloatTensor(2).shape)"},
    {"DoubleTensor", HELP_TENSORS, 0,
     "DoubleTensor(data) / DoubleTensor(...shape)",
     "LongTensor's float64 twin.",
     "print(DoubleTensor([[1, 2]]))"},
    {"manual_seed", HELP_TENSORS, 0,
     "manual_seed(seed)",
     "Seeds the default generator (and returns it): every random function then draws "
     "what PyTorch 1.13 draws after torch.manual_seed(seed). A negative seed is taken as "
     "its 64-bit two's complement, a fractional one truncated, as PyTorch does.",
     "manual_seed(0)\n"
     "print(randn(3))"},
    {"erf", HELP_BUILTINS, 0,
     "erf(x)",
     "The error function of a number (Python's math.erf).",
     "print(erf(0.5))"},
    {"qr", HELP_TENSORS, 0,
     "qr(a)",
     "[Q, R], the reduced QR factorisation of a 2-D float matrix with rows >= columns "
     "(LAPACK's, so torch.linalg.qr's values); no derivative is recorded.",
     "let [q, r] = qr(tensor([[3.0, 1.0], [4.0, 2.0]]))\n"
     "print(r)"},
    {"seed", HELP_TENSORS, 0,
     "seed()",
     "Seeds the default generator from /dev/urandom and returns the seed.",
     "print(seed() >= 0)"},
    {"initial_seed", HELP_TENSORS, 0,
     "initial_seed()",
     "The seed the default generator was last seeded with (67280421310721 when the "
     "script set none).",
     "manual_seed(7)\n"
     "print(initial_seed())"},
    {"get_rng_state", HELP_TENSORS, 0,
     "get_rng_state()",
     "The default generator's state: PyTorch's 5056 state bytes, as an int64 tensor "
     "(Ag has no uint8 dtype).",
     "let s = get_rng_state()\n"
     "let a = rand(2)\n"
     "set_rng_state(s)\n"
     "print(rand(2) == a)"},
    {"set_rng_state", HELP_TENSORS, 0,
     "set_rng_state(state)",
     "Restores the default generator from get_rng_state()'s bytes (or PyTorch's).",
     "set_rng_state(get_rng_state())"},
    {"Generator", HELP_TENSORS, 0,
     "Generator(device=\"cpu\")",
     "A random generator of its own (seed 67280421310721), passed as generator= to rand, "
     "randn, randint, randperm, normal_, uniform_, bernoulli, multinomial, exponential_. "
     "Methods manual_seed(s) (returns it), seed(), initial_seed(), get_state(), "
     "set_state(t).",
     "let g = Generator().manual_seed(2147483647)\n"
     "print(randint(0, 27, [3], generator=g))"},
    {"default_generator", HELP_TENSORS, 0,
     "default_generator",
     "The Generator that manual_seed seeds and the random functions use by default.",
     "print(default_generator.initial_seed() == initial_seed())"},
    {"bernoulli", HELP_TENSORS, 0,
     "bernoulli(p, generator=nil) / bernoulli(t, p=0.5)",
     "1 with probability p (each element of the tensor p, or the number p), else 0; "
     "p's dtype and shape.",
     "manual_seed(0)\n"
     "print(bernoulli(full([4], 0.5)))"},
    {"multinomial", HELP_TENSORS, 0,
     "multinomial(weights, num_samples, replacement=false, generator=nil)",
     "Indices drawn with probability proportional to weights (1-D, or one row per "
     "distribution in 2-D): without replacement each index at most once. int64.",
     "manual_seed(0)\n"
     "print(multinomial(tensor([0.1, 0.7, 0.2]), 5, replacement=true))"},
    {"arange", HELP_TENSORS, 0,
     "arange(end) / arange(start, end, step=1, dtype=nil)",
     "Evenly spaced values in [start, end); int64 when all arguments are integral, like "
     "PyTorch.",
     "print(arange(4), arange(0, 1, 0.25))"},
    {"linspace", HELP_TENSORS, 0,
     "linspace(start, end, steps)",
     "steps evenly spaced values from start to end, both included.",
     "print(linspace(0, 1, 5))"},
    {"eye", HELP_TENSORS, 0,
     "eye(n, m=n, dtype=float32)",
     "The identity matrix (ones on the diagonal).",
     "print(eye(2))"},
    {"cat", HELP_TENSORS, 0,
     "cat(tensors, dim=0)",
     "Joins a list of tensors along an existing dimension (CatBackward0).",
     "print(cat([ones(2), zeros(1)]))"},
    {"stack", HELP_TENSORS, 0,
     "stack(tensors, dim=0)",
     "Stacks a list of same-shaped tensors along a new dimension (StackBackward0).",
     "print(stack([ones(2), zeros(2)]).shape)"},
    {"where", HELP_TENSORS, 0,
     "where(cond, a, b)",
     "Elementwise a where cond is true, else b, broadcasting all three (WhereBackward0).",
     "let x = tensor([-1.0, 2.0])\n"
     "print(where(x > 0, x, zeros_like(x)))"},
    {"numel", HELP_TENSORS, HELP_TENSOR_METHOD,
     "numel(t) / t.numel()",
     "The number of elements.",
     "print(zeros(2, 3).numel())"},
    {"narrow", HELP_TENSORS, HELP_TENSOR_METHOD,
     "narrow(t, dim, start, length) / t.narrow(dim, start, length)",
     "The view of elements start .. start + length - 1 along dim (start may count from "
     "the end).",
     "print(arange(6).view(2, 3).narrow(1, 1, 2))"},
    {"clone", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clone(t) / t.clone()",
     "A copy with its own storage; gradients flow back to t (CloneBackward0).",
     "let a = ones(2)\n"
     "let b = a.clone()\n"
     "b.add_(1)\n"
     "print(a, b)"},
    {"detach", HELP_TENSORS, HELP_TENSOR_METHOD,
     "detach(t) / t.detach()",
     "A tensor sharing t's storage without its history (requires_grad false).",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 2).detach().requires_grad)"},
    {"mean", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mean(t, dim=nil, keepdim=false) / t.mean(...)",
     "The mean of all elements, or along dim (MeanBackward0 / MeanBackward1).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).mean())"},
    {"prod", HELP_TENSORS, HELP_TENSOR_METHOD,
     "prod(t, dim=nil, keepdim=false) / t.prod(...)",
     "The product of all elements, or along one dim.",
     "print(tensor([2.0, 3.0]).prod())"},
    {"argmax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "argmax(t, dim=nil, keepdim=false) / t.argmax(...)",
     "The index of the largest element (of the flattened tensor, or along dim); int64.",
     "print(tensor([1.0, 5.0, 2.0]).argmax())"},
    {"argmin", HELP_TENSORS, HELP_TENSOR_METHOD,
     "argmin(t, dim=nil, keepdim=false) / t.argmin(...)",
     "The index of the smallest element (flattened, or along dim); int64.",
     "print(tensor([[3.0, 1.0], [0.0, 4.0]]).argmin(dim=1))"},
    {"std", HELP_TENSORS, HELP_TENSOR_METHOD,
     "std(t, dim=nil, unbiased=true, keepdim=false) / t.std(...)",
     "Standard deviation (with Bessel's correction unless unbiased=false).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).std())"},
    {"var", HELP_TENSORS, HELP_TENSOR_METHOD,
     "var(t, dim=nil, unbiased=true, keepdim=false) / t.var(...)",
     "Variance (with Bessel's correction unless unbiased=false).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).var())"},
    {"norm", HELP_TENSORS, HELP_TENSOR_METHOD,
     "norm(t, p=2, dim=nil, keepdim=false) / t.norm(...)",
     "The p-norm of all elements, or along dim.",
     "print(tensor([3.0, 4.0]).norm())"},
    {"logsumexp", HELP_TENSORS, HELP_TENSOR_METHOD,
     "logsumexp(t, dim=nil, keepdim=false) / t.logsumexp(...)",
     "log(sum(exp(t))) computed stably.",
     "print(tensor([1.0, 2.0]).logsumexp(dim=0))"},
    {"reshape", HELP_TENSORS, HELP_TENSOR_METHOD,
     "reshape(t, ...shape) / t.reshape(...shape)",
     "The same elements in a new shape (a view when possible); one dimension may be -1.0",
     "print(arange(6).reshape(2, -1))"},
    {"flatten", HELP_TENSORS, HELP_TENSOR_METHOD,
     "flatten(t, start_dim=0, end_dim=-1) / t.flatten(...)",
     "Merges the dimensions start_dim..end_dim into one.",
     "print(ones(2, 3, 4).flatten(1).shape)"},
    {"squeeze", HELP_TENSORS, HELP_TENSOR_METHOD,
     "squeeze(t, dim=nil) / t.squeeze(dim=nil)",
     "Removes dimensions of size 1 (all, or only dim).",
     "print(zeros(1, 3, 1).squeeze().shape)"},
    {"unsqueeze", HELP_TENSORS, HELP_TENSOR_METHOD,
     "unsqueeze(t, dim) / t.unsqueeze(dim)",
     "Inserts a dimension of size 1 at dim.",
     "print(zeros(3).unsqueeze(0).shape)"},
    {"transpose", HELP_TENSORS, HELP_TENSOR_METHOD,
     "transpose(t, dim0, dim1) / t.transpose(dim0, dim1)",
     "Swaps two dimensions (a view; TransposeBackward0).",
     "print(zeros(2, 3).transpose(0, 1).shape)"},
    {"permute", HELP_TENSORS, HELP_TENSOR_METHOD,
     "permute(t, ...dims) / t.permute(...dims)",
     "Reorders all dimensions (a view).",
     "print(zeros(2, 3, 4).permute(2, 0, 1).shape)"},
    {"t", HELP_TENSORS, HELP_TENSOR_METHOD,
     "t(m) / m.t()",
     "Transposes a 1-D or 2-D tensor (the same as m.T for 2-D).",
     "print(tensor([[1, 2]]).t())"},
    {"split", HELP_TENSORS, HELP_TENSOR_METHOD,
     "split(t, split_size_or_sections, dim=0) / t.split(...)",
     "A list of pieces of t along dim: each of split_size (the last may be smaller), or "
     "of the sizes in a list.",
     "print(arange(5).split(2))"},
    {"chunk", HELP_TENSORS, HELP_TENSOR_METHOD,
     "chunk(t, chunks, dim=0) / t.chunk(chunks, dim=0)",
     "A list of (at most) chunks nearly equal pieces along dim.",
     "print(arange(6).chunk(3))"},
    {"unbind", HELP_TENSORS, HELP_TENSOR_METHOD,
     "unbind(t, dim=0) / t.unbind(dim=0)",
     "A list of the slices along dim, that dimension removed.",
     "print(tensor([[1, 2], [3, 4]]).unbind())"},
    {"index_select", HELP_TENSORS, HELP_TENSOR_METHOD,
     "index_select(t, dim, index) / t.index_select(dim, index)",
     "The slices of t along dim at the positions of an int64 index tensor.",
     "print(arange(5).index_select(0, tensor([4, 0], dtype=int64)))"},
    {"gather", HELP_TENSORS, HELP_TENSOR_METHOD,
     "gather(t, dim, index) / t.gather(dim, index)",
     "Picks along dim the elements at the positions of index (the shape of index), as "
     "torch.gather.",
     "let t = tensor([[1.0, 2.0], [3.0, 4.0]])\n"
     "print(t.gather(1, tensor([[1], [0]], dtype=int64)))"},
    {"scatter", HELP_TENSORS, HELP_TENSOR_METHOD,
     "scatter(t, dim, index, src or value, reduce=nil) / t.scatter(dim, index, src)",
     "A copy of t with src's elements (or the number value) written along dim at the "
     "positions of an int64 index tensor (index's shape; out-of-range indices are an "
     "error). reduce=\"add\" or \"multiply\" combines instead of writing (PyTorch has no "
     "derivative for that form). Records ScatterBackward0 (src) or ScatterBackward1 "
     "(value).",
     "let t = zeros(2, 3)\n"
     "print(t.scatter(1, tensor([[2], [0]]), tensor([[5.0], [6.0]])))"},
    {"scatter_add", HELP_TENSORS, HELP_TENSOR_METHOD,
     "scatter_add(t, dim, index, src) / t.scatter_add(dim, index, src)",
     "A copy of t with src's elements added at index along dim; repeated indices "
     "accumulate (ScatterAddBackward0).",
     "print(zeros(3).scatter_add(0, tensor([0, 2, 0]), tensor([1.0, 2.0, 3.0])))"},
    {"index_add", HELP_TENSORS, HELP_TENSOR_METHOD,
     "index_add(t, dim, index, source, alpha=1) / t.index_add(dim, index, source, alpha=1)",
     "A copy of t with alpha times slice i of source added to slice index[i] along dim "
     "(IndexAddBackward0).",
     "print(zeros(3, 2).index_add(0, tensor([2, 0, 2]), ones(3, 2), alpha=2))"},
    {"masked_fill", HELP_TENSORS, HELP_TENSOR_METHOD,
     "masked_fill(t, mask, value) / t.masked_fill(mask, value)",
     "A copy of t with value where the bool mask (broadcast) is true; value a number or "
     "a 0-d tensor (MaskedFillBackward0, MaskedFillBackward1).",
     "let t = tensor([1.0, 2.0, 3.0])\n"
     "print(t.masked_fill(t > 1, 0))"},
    {"nonzero", HELP_TENSORS, HELP_TENSOR_METHOD,
     "nonzero(t, as_tuple=false) / t.nonzero(as_tuple=false)",
     "The coordinates of the nonzero elements as an [n, ndim] int64 tensor in row-major "
     "order; as_tuple=true gives a list of one index tensor per dimension (usable as "
     "t[...] indices).",
     "print(tensor([[1, 0], [0, 3]]).nonzero())"},
    {"unique", HELP_TENSORS, HELP_TENSOR_METHOD,
     "unique(t, sorted=true, return_inverse=false, return_counts=false, dim=nil)",
     "The distinct elements of t in ascending order (flattened), or with dim its distinct "
     "slices along dim. With return_inverse / return_counts a list [values, inverse, "
     "counts]: where each element went, how often each value occurs. sorted=false gives "
     "the sorted order too (PyTorch leaves it unspecified). Not differentiable "
     "(Unique2Backward0 fails, as PyTorch's).",
     "print(unique(tensor([3, 1, 3, 2]), return_counts=true))"},
    {"bincount", HELP_TENSORS, HELP_TENSOR_METHOD,
     "bincount(t, weights=nil, minlength=0) / t.bincount(...)",
     "How often each value 0..max occurs in a 1-D non-negative int64 tensor (at least "
     "minlength counts); with weights the sum of the weights of each value (float32 "
     "weights give float32, others float64).",
     "print(bincount(tensor([1, 1, 3]), minlength=5))"},
    {"isclose", HELP_TENSORS, HELP_TENSOR_METHOD,
     "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false) / a.isclose(b, ...)",
     "Elementwise |a - b| <= atol + rtol * |b| as a bool tensor (a and b of one dtype, "
     "broadcast); equal infinities are close, NaNs only with equal_nan.",
     "print(isclose(tensor([1.0, 2.0]), tensor([1.000001, 2.1])))"},
    {"allclose", HELP_TENSORS, HELP_TENSOR_METHOD,
     "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false) / a.allclose(b, ...)",
     "true when isclose holds for every element (a boolean, not a tensor).",
     "print(allclose(tensor([1.0, 2.0]), tensor([1.0, 2.000001])))"},
    {"meshgrid", HELP_TENSORS, 0,
     "meshgrid(*tensors, indexing=\"ij\")",
     "Grids from 0-D or 1-D tensors (given one by one or as one list): grid i holds "
     "tensor i along dimension i, expanded over the others; indexing=\"xy\" swaps the "
     "first two dimensions (Cartesian, as NumPy). Without indexing= it warns once, as "
     "PyTorch 1.13, and uses \"ij\".",
     "let g = meshgrid(tensor([1, 2]), tensor([3, 4, 5]), indexing=\"ij\")\n"
     "print(g[0].shape, g[1][0])"},
    AG_UNARY_REGISTRY(UNARY_HELP, 0)
    AG_BINARY_REGISTRY(BINARY_HELP, 0)
    {"clamp", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clamp(t, min=nil, max=nil) / t.clamp(min=, max=)",
     "Limits each element to [min, max]; gradient 0 where clamped (ClampBackward1).",
     "print(tensor([-2.0, 0.5, 3.0]).clamp(min=0, max=1))"},
    {"addcmul", HELP_TENSORS, HELP_TENSOR_METHOD,
     "addcmul(t, tensor1, tensor2, value=1) / t.addcmul(...)",
     "t + value * tensor1 * tensor2, all three broadcast, rounding as ATen's kernel "
     "(AddcmulBackward0); addcmul_ is the in-place form.",
     "print(addcmul(zeros(2), tensor([1.0, 2.0]), tensor([3.0, 4.0]), value=0.5))"},
    {"addcdiv", HELP_TENSORS, HELP_TENSOR_METHOD,
     "addcdiv(t, tensor1, tensor2, value=1) / t.addcdiv(...)",
     "t + value * tensor1 / tensor2, all three broadcast, rounding as ATen's kernel "
     "(AddcdivBackward0); addcdiv_ is the in-place form.",
     "print(addcdiv(ones(2), tensor([1.0, 2.0]), tensor([4.0, 4.0]), value=-1))"},
    {"lerp", HELP_TENSORS, HELP_TENSOR_METHOD,
     "lerp(start, end, weight) / start.lerp(end, weight)",
     "start + weight * (end - start), weight a number or a tensor, in ATen's two forms "
     "(LerpBackward0 for a number, LerpBackward1 for a tensor); lerp_ is the in-place form.",
     "print(lerp(zeros(3), ones(3), tensor([0.0, 0.5, 1.0])))"},
    {"matmul", HELP_TENSORS, HELP_TENSOR_METHOD,
     "matmul(a, b) / a.matmul(b) / a @ b",
     "Matrix product with PyTorch's rules: 1-D dot, 2-D mm, matrix-vector, batched with "
     "broadcasting; computed by BLAS.",
     "print(ones(2, 3) @ ones(3, 4))"},
    {"mm", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mm(a, b) / a.mm(b)",
     "Product of two 2-D matrices (MmBackward0).",
     "print(eye(2).mm(tensor([[1.0, 2.0], [3.0, 4.0]])))"},
    {"bmm", HELP_TENSORS, HELP_TENSOR_METHOD,
     "bmm(a, b) / a.bmm(b)",
     "Batched product of [B, n, m] and [B, m, p] tensors (BmmBackward0).",
     "print(bmm(ones(5, 2, 3), ones(5, 3, 4)).shape)"},
    {"mv", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mv(m, v) / m.mv(v)",
     "Matrix-vector product (MvBackward0).",
     "print(eye(2).mv(tensor([1.0, 2.0])))"},
    {"dot", HELP_TENSORS, HELP_TENSOR_METHOD,
     "dot(a, b) / a.dot(b)",
     "Dot product of two 1-D tensors (DotBackward0).",
     "print(tensor([1.0, 2.0]).dot(tensor([3.0, 4.0])))"},
    {"outer", HELP_TENSORS, HELP_TENSOR_METHOD,
     "outer(a, b) / a.outer(b)",
     "Outer product of two 1-D tensors.",
     "print(outer(tensor([1.0, 2.0]), tensor([1.0, 0.0])))"},
    {"softmax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "softmax(t, dim) / t.softmax(dim)",
     "exp(t) normalised to sum 1 along dim (SoftmaxBackward0).",
     "print(softmax(tensor([1.0, 1.0]), 0))"},
    {"log_softmax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "log_softmax(t, dim) / t.log_softmax(dim)",
     "log(softmax(t, dim)) computed stably (LogSoftmaxBackward0).",
     "print(log_softmax(tensor([0.0, 0.0]), 0))"},
    {"sort", HELP_TENSORS, HELP_TENSOR_METHOD,
     "sort(t, dim=-1, descending=false, stable=false) / t.sort(...)",
     "torch.return_types.sort(values, indices): t sorted along dim and the int64 positions "
     "the values came from (.values, .indices; it unpacks as a pair) "
     "(SortBackward0). NaN sorts above inf, -0.0 equals 0.0. Always stable: equal values keep "
     "their order (PyTorch leaves it unspecified without stable=true).",
     "let r = tensor([3.0, 1.0, 2.0]).sort()\n"
     "print(r.values, r.indices)"},
    {"argsort", HELP_TENSORS, HELP_TENSOR_METHOD,
     "argsort(t, dim=-1, descending=false, stable=false) / t.argsort(...)",
     "The indices of sort(t, dim, descending) alone (int64, not differentiable).",
     "print(tensor([3.0, 1.0, 2.0]).argsort(descending=true))"},
    {"topk", HELP_TENSORS, HELP_TENSOR_METHOD,
     "topk(t, k, dim=-1, largest=true, sorted=true) / t.topk(k, ...)",
     "torch.return_types.topk(values, indices): the k largest (largest=false: smallest) "
     "elements along dim, in "
     "sorted order, ties by position (TopkBackward0). Error \"selected index k out of "
     "range\" unless 0 <= k <= size.",
     "let r = tensor([1.0, 5.0, 3.0, 4.0]).topk(2)\n"
     "print(r.values, r.indices)"},
    {"kthvalue", HELP_TENSORS, HELP_TENSOR_METHOD,
     "kthvalue(t, k, dim=-1, keepdim=false) / t.kthvalue(k, dim=-1, keepdim=false)",
     "torch.return_types.kthvalue(values, indices): the k-th smallest element (k from 1) "
     "along dim and its position; "
     "NaN counts as the largest, and among equal values the index is the one PyTorch 1.13 "
     "picks. The gradient goes to the selected elements.",
     "print(tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]).kthvalue(2, 1))"},
    {"mode", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mode(t, dim=-1, keepdim=false) / t.mode(dim=-1, keepdim=false)",
     "torch.return_types.mode(values, indices): the most frequent value along dim (the "
     "smallest of those equally frequent) and the index of it PyTorch 1.13 reports (the "
     "last of its run once ATen's CPU kernel has sorted the slice). The gradient goes to "
     "that element (ModeBackward0).",
     "print(tensor([1, 2, 2, 3]).mode())"},
    {"median", HELP_TENSORS, HELP_TENSOR_METHOD,
     "median(t) / median(t, dim, keepdim=false) / t.median(dim=nil, keepdim=false)",
     "The lower median of every element (NaN if there is one); with dim, "
     "torch.return_types.median(values, indices) along it, the index among equal values the one PyTorch 1.13 gives (the "
     "first NaN when there is one). median() shares its gradient among the elements "
     "equal to it; median(dim) gives it to the selected ones.",
     "print(tensor([3.0, 1.0, 2.0, 4.0]).median(), tensor([[3.0, 1.0, 2.0]]).median(1))"},
    {"flip", HELP_TENSORS, HELP_TENSOR_METHOD,
     "flip(t, dims) / t.flip(dims) / t.flip(d0, d1, ...)",
     "A copy of t reversed along each of dims (FlipBackward0).",
     "print(tensor([[1, 2], [3, 4]]).flip(1))"},
    {"tril", HELP_TENSORS, HELP_TENSOR_METHOD,
     "tril(t, diagonal=0) / t.tril(diagonal=0)",
     "The lower triangle of the last two dims: elements with column - row <= diagonal "
     "kept, the rest zero (TrilBackward0).",
     "print(ones(3, 3).tril())"},
    {"triu", HELP_TENSORS, HELP_TENSOR_METHOD,
     "triu(t, diagonal=0) / t.triu(diagonal=0)",
     "The upper triangle of the last two dims: elements with column - row >= diagonal "
     "kept, the rest zero (TriuBackward0).",
     "print(ones(3, 3).triu(1))"},
    {"cumsum", HELP_TENSORS, HELP_TENSOR_METHOD,
     "cumsum(t, dim, dtype=nil) / t.cumsum(dim, dtype=nil)",
     "Running sums along dim (CumsumBackward0), accumulated in double as PyTorch; an "
     "integer or bool tensor gives int64 unless dtype= says otherwise.",
     "print(tensor([1, 2, 3, 4]).cumsum(0))"},
    {"cumprod", HELP_TENSORS, HELP_TENSOR_METHOD,
     "cumprod(t, dim, dtype=nil) / t.cumprod(dim, dtype=nil)",
     "Running products along dim (CumprodBackward0), accumulated in double as PyTorch; an "
     "integer or bool tensor gives int64 unless dtype= says otherwise. The gradient is "
     "right where the input holds zeros too (ATen's cumprod_backward).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).cumprod(0))"},
    {"diag", HELP_TENSORS, HELP_TENSOR_METHOD,
     "diag(t, diagonal=0) / t.diag(diagonal=0)",
     "For a vector: the square matrix with it on diagonal `diagonal` (above the main one "
     "when positive, below when negative). For a matrix: that diagonal as a vector "
     "(DiagBackward0). Other ranks: \"matrix or a vector expected\".",
     "print(diag(tensor([1, 2])), diag(tensor([[1, 2], [3, 4]]), 1))"},
    {"roll", HELP_TENSORS, HELP_TENSOR_METHOD,
     "roll(t, shifts, dims=nil) / t.roll(shifts, dims=nil)",
     "A copy with the elements shifted along dims, those pushed past the end coming back "
     "at the start (RollBackward0). shifts and dims are numbers or lists of the same "
     "length; without dims the flattened tensor is rolled and keeps its shape.",
     "print(tensor([[1, 2, 3], [4, 5, 6]]).roll(1, 1))"},
    {"repeat_interleave", HELP_TENSORS, HELP_TENSOR_METHOD,
     "repeat_interleave(t, repeats, dim=nil, output_size=nil) / t.repeat_interleave(...)",
     "Each element (each slice along dim; without dim, of the flattened tensor) repeated "
     "`repeats` times in place: repeats is a number or an int64 tensor with one count per "
     "slice. Made of index_select, as in PyTorch (IndexSelectBackward0). "
     "repeat_interleave(counts) alone gives each index i counts[i] times.",
     "print(tensor([1, 2]).repeat_interleave(2), repeat_interleave(tensor([1, 0, 2])))"},
    {"kron", HELP_TENSORS, HELP_TENSOR_METHOD,
     "kron(a, b) / a.kron(b)",
     "The Kronecker product: block (i, j, ...) is a[i, j, ...] * b, the ranks padded to "
     "the larger; recorded as PyTorch computes it, a product of two views "
     "(UnsafeViewBackward0 of MulBackward0).",
     "print(kron(eye(2), tensor([[1, 2], [3, 4]])))"},
    {"einsum", HELP_TENSORS, 0,
     "einsum(equation, a, b, ...) / einsum(equation, [a, b, ...]) / einsum(a, [0, 1], b, [1, 2], [0, 2])",
     "Einstein summation: \"ij,jk->ik\" names each operand's dims with letters (a-z, "
     "A-Z); letters missing after -> are summed over. Without -> the output is the letters "
     "used once, in alphabetical order. A letter repeated in one operand takes a diagonal "
     "(\"ii->i\"); \"...\" stands for dims that broadcast (\"...ij,...jk\"). Computed, "
     "as in PyTorch 1.13, by permute, diagonal, sum, mul and bmm, so the gradient and the "
     "graph's nodes are theirs. The sublist form gives each operand's subscripts as ints "
     "(0-25 for A-Z, 26-51 for a-z), the output's last.",
     "let a = tensor([[1.0, 2.0], [3.0, 4.0]])\n"
     "print(einsum(\"ij,jk->ik\", a, a), einsum(\"ii\", a), einsum(\"ij->j\", a))"},
    {"clamp_min", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clamp_min(t, min) / t.clamp_min(min)",
     "clamp(t, min=min) recorded as PyTorch's own op (ClampMinBackward0).",
     "print(tensor([-1.0, 2.0]).clamp_min(0.0))"},
    {"clamp_max", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clamp_max(t, max) / t.clamp_max(max)",
     "clamp(t, max=max) recorded as PyTorch's own op (ClampMaxBackward0).",
     "print(tensor([-1.0, 2.0]).clamp_max(0.0))"},
    {"amax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "amax(t, dim=[], keepdim=false) / t.amax(...)",
     "The largest values over dim (a number or a list; all dims when empty), no indices; "
     "the gradient is shared evenly among tied elements (AmaxBackward0).",
     "print(tensor([[1.0, 5.0], [7.0, 2.0]]).amax(1))"},
    {"amin", HELP_TENSORS, HELP_TENSOR_METHOD,
     "amin(t, dim=[], keepdim=false) / t.amin(...)",
     "The smallest values over dim, as amax (AminBackward0).",
     "print(tensor([[1.0, 5.0], [7.0, 2.0]]).amin([0, 1]))"},
    {"trace", HELP_TENSORS, HELP_TENSOR_METHOD,
     "trace(t) / t.trace()",
     "The sum of the diagonal of a 2-D tensor (TraceBackward0); int64 for integers.",
     "print(tensor([[1, 2], [3, 4]]).trace())"},
    {"mse_loss", HELP_TENSORS, 0,
     "mse_loss(input, target, reduction=\"mean\")",
     "Mean squared error; reduction \"mean\", \"sum\" or \"none\". Every loss but "
     "huber_loss (functions and nn modules) also takes PyTorch's legacy size_average= and "
     "reduce=: either given sets the reduction (\"mean\" when both are true, \"sum\" when "
     "only reduce is, else \"none\") and warns, as PyTorch 1.13, that they are deprecated.",
     "print(mse_loss(tensor([1.0, 2.0]), tensor([1.0, 4.0])))"},
    {"l1_loss", HELP_TENSORS, 0,
     "l1_loss(input, target, reduction=\"mean\")",
     "Mean absolute error; reduction \"mean\", \"sum\" or \"none\".",
     "print(l1_loss(tensor([1.0, 2.0]), tensor([1.0, 4.0])))"},
    {"cross_entropy", HELP_TENSORS, 0,
     "cross_entropy(logits, target, weight=nil, ignore_index=-100, reduction=\"mean\", "
     "label_smoothing=0.0)",
     "Softmax cross-entropy: log_softmax over the class dim (1, or 0 for a [C] input) then "
     "nll_loss, with int64 class indices as target ([N], [N, d...] or 0-d), or against class "
     "probabilities of the logits' shape. weight (one per class), ignore_index (targets "
     "that count for nothing; the mean divides by the kept targets' weights, nan when all "
     "are ignored) and label_smoothing apply as in PyTorch 1.13, its numbers to the bit.",
     "print(cross_entropy(tensor([[2.0, 0.0], [0.0, 2.0]]), tensor([0, -100])))"},
    {"nll_loss", HELP_TENSORS, 0,
     "nll_loss(log_probs, target, weight=nil, ignore_index=-100, reduction=\"mean\")",
     "Negative log-likelihood of log-probabilities ([C], [N, C] or [N, C, d...]) against "
     "int64 class indices: -log_probs[target] * weight[target], 0 where target == "
     "ignore_index; the mean divides by the summed weights of the kept targets "
     "(NllLossBackward0, NllLoss2DBackward0 for a 4-D input, as PyTorch).",
     "print(nll_loss(log_softmax(zeros(2, 2), 1), tensor([0, 1]), weight=tensor([1.0, 3.0])))"},
    {"binary_cross_entropy", HELP_TENSORS, 0,
     "binary_cross_entropy(probs, target, weight=nil, reduction=\"mean\")",
     "Binary cross-entropy of probabilities in [0, 1] against targets of the same shape, "
     "each log clamped at -100; weight (broadcast to the input) multiplies each element's "
     "loss before the reduction.",
     "print(binary_cross_entropy(tensor([0.5, 0.9]), tensor([1.0, 1.0]), weight=tensor([1.0, 2.0])))"},
    {"binary_cross_entropy_with_logits", HELP_TENSORS, 0,
     "binary_cross_entropy_with_logits(logits, target, weight=nil, reduction=\"mean\", "
     "pos_weight=nil)",
     "Binary cross-entropy of sigmoid(logits), computed stably from the logits; weight scales "
     "each element, pos_weight the positive term of each class (both broadcast; no gradient). "
     "BinaryCrossEntropyWithLogitsBackward0.",
     "print(binary_cross_entropy_with_logits(tensor([0.0, 2.0]), tensor([1.0, 0.0])))"},
    {"smooth_l1_loss", HELP_TENSORS, 0,
     "smooth_l1_loss(input, target, reduction=\"mean\", beta=1.0)",
     "0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = input - target); "
     "beta 0 is the L1 loss. SmoothL1LossBackward0.",
     "print(smooth_l1_loss(tensor([0.5, 3.0]), zeros(2)))"},
    {"huber_loss", HELP_TENSORS, 0,
     "huber_loss(input, target, reduction=\"mean\", delta=1.0)",
     "0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) elsewhere (d = input - target). "
     "HuberLossBackward0.",
     "print(huber_loss(tensor([0.5, 3.0]), zeros(2), delta=2.0))"},
    {"kl_div", HELP_TENSORS, 0,
     "kl_div(log_probs, target, reduction=\"mean\", log_target=false)",
     "Kullback-Leibler divergence: target * (log(target) - input) (0 where target is 0), or "
     "with log_target exp(target) * (target - input). reduction \"batchmean\" divides the "
     "sum by the batch size (KL's definition); \"mean\" divides by the element count and "
     "warns, as PyTorch 1.13 does.",
     "print(kl_div(log_softmax(tensor([[1.0, 2.0]]), 1), tensor([[0.5, 0.5]]), "
     "reduction=\"batchmean\"))"},
    {"dropout", HELP_TENSORS, 0,
     "dropout(t, p=0.5, training=true)",
     "Zeroes each element with probability p and scales the rest by 1/(1-p) while "
     "training; the identity otherwise.",
     "print(dropout(ones(4), 0.5, false))"},
    {"linear", HELP_TENSORS, 0,
     "linear(x, weight, bias=nil)",
     "x @ weight.T + bias, the function behind nn.Linear.",
     "print(linear(ones(1, 2), ones(3, 2), zeros(3)))"},
    {"embedding", HELP_TENSORS, 0,
     "embedding(weight, indices)",
     "Rows of weight picked by the int64 tensor indices: the function behind nn.Embedding. "
     "Its backward adds each gradient row into the row it came from (EmbeddingBackward0).",
     "print(embedding(eye(3), tensor([2, 0], dtype=int64)))"},
    {"conv2d", HELP_TENSORS, 0,
     "conv2d(input, weight, bias=nil, stride=1, padding=0, dilation=1, groups=1)",
     "2-D convolution (cross-correlation, as PyTorch) of input [N, C, H, W] or [C, H, W] with "
     "weight [O, C/groups, kh, kw]: im2col and one BLAS product per sample and group. "
     "stride, padding and dilation are numbers or [h, w]; padding=\"same\" keeps the size "
     "(stride 1), \"valid\" is 0. Recorded as ConvolutionBackward0, twice differentiable.",
     "print(conv2d(ones(1, 1, 4, 4), ones(2, 1, 3, 3), padding=1).shape)"},
    {"conv1d", HELP_TENSORS, 0,
     "conv1d(input, weight, bias=nil, stride=1, padding=0, dilation=1, groups=1)",
     "1-D convolution of input [N, C, L] or [C, L] with weight [O, C/groups, k]; options as "
     "conv2d.",
     "print(conv1d(ones(1, 2, 5), ones(3, 2, 2)).shape)"},
    {"max_pool2d", HELP_TENSORS, 0,
     "max_pool2d(input, kernel_size, stride=kernel_size, padding=0, dilation=1, ceil_mode=false, "
     "return_indices=false)",
     "The maximum of each window of input [C, H, W] or [N, C, H, W] (a NaN wins); with "
     "return_indices, [values, indices] where indices are positions y * W + x in each plane. "
     "Recorded as MaxPool2DWithIndicesBackward0.",
     "print(max_pool2d(arange(16).float().reshape(1, 4, 4), 2))"},
    {"max_pool1d", HELP_TENSORS, 0,
     "max_pool1d(input, kernel_size, stride=kernel_size, padding=0, dilation=1, ceil_mode=false, "
     "return_indices=false)",
     "max_pool2d over input [C, L] or [N, C, L], as PyTorch runs it (on a height of 1).",
     "print(max_pool1d(tensor([[1.0, 3.0, 2.0, 0.0]]), 2))"},
    {"avg_pool2d", HELP_TENSORS, 0,
     "avg_pool2d(input, kernel_size, stride=kernel_size, padding=0, ceil_mode=false, "
     "count_include_pad=true, divisor_override=nil)",
     "The mean of each window of input [C, H, W] or [N, C, H, W]; padded zeros count unless "
     "count_include_pad=false. Recorded as AvgPool2DBackward0.",
     "print(avg_pool2d(arange(16).float().reshape(1, 4, 4), 2))"},
    {"avg_pool1d", HELP_TENSORS, 0,
     "avg_pool1d(input, kernel_size, stride=kernel_size, padding=0, ceil_mode=false, "
     "count_include_pad=true)",
     "avg_pool2d over input [C, L] or [N, C, L].",
     "print(avg_pool1d(tensor([[1.0, 3.0, 2.0, 0.0]]), 2))"},
    {"adaptive_avg_pool2d", HELP_TENSORS, 0,
     "adaptive_avg_pool2d(input, output_size)",
     "Averages input [C, H, W] or [N, C, H, W] over output_size cells ([oh, ow] or one "
     "number; nil keeps that size): cell i covers rows floor(i H / oh) to ceil((i + 1) H / oh). "
     "Recorded as AdaptiveAvgPool2DBackward0 (a mean for output_size 1, as PyTorch).",
     "print(adaptive_avg_pool2d(arange(16).float().reshape(1, 4, 4), 2))"},
    {"batch_norm", HELP_TENSORS, 0,
     "batch_norm(input, running_mean, running_var, weight=nil, bias=nil, training=false, "
     "momentum=0.1, eps=1e-5)",
     "Normalises each channel of input [N, C, ...]: with training by the batch's mean and "
     "(biased) variance, updating running_mean/running_var in place as (1 - momentum) running + "
     "momentum batch (unbiased variance); without, by the running statistics. Then "
     "* weight + bias per channel. Recorded as NativeBatchNormBackward0.",
     "print(batch_norm(tensor([[1.0, 2.0], [3.0, 6.0]]), nil, nil, training=true))"},
    {"layer_norm", HELP_TENSORS, 0,
     "layer_norm(input, normalized_shape, weight=nil, bias=nil, eps=1e-5)",
     "Normalises each sample over its last dims (normalized_shape, a number or a list), then "
     "* weight + bias (of that shape). Recorded as NativeLayerNormBackward0.",
     "print(layer_norm(tensor([[1.0, 2.0, 3.0]]), 3))"},
    {"group_norm", HELP_TENSORS, 0,
     "group_norm(input, num_groups, weight=nil, bias=nil, eps=1e-5)",
     "Normalises each sample of input [N, C, ...] over groups of C / num_groups channels, then "
     "* weight + bias per channel. Recorded as NativeGroupNormBackward0.",
     "print(group_norm(arange(8).float().reshape(1, 4, 2), 2))"},
    {"unfold", HELP_TENSORS, 0,
     "unfold(input, kernel_size, dilation=1, padding=0, stride=1)",
     "The sliding blocks of input [N, C, H, W] as columns [N, C * kh * kw, L] (im2col, "
     "PyTorch's F.unfold; Im2ColBackward0).",
     "print(unfold(ones(1, 2, 3, 3), 2).shape)"},
    {"fold", HELP_TENSORS, 0,
     "fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)",
     "The inverse layout of unfold: columns [N, C * kh * kw, L] summed back into "
     "[N, C, H, W] (col2im, PyTorch's F.fold; Col2ImBackward0).",
     "print(fold(ones(1, 4, 4), [3, 3], 2))"},
    {"save", HELP_TENSORS, 0,
     "save(value, path, compressed=false)",
     "Writes value to path, replacing the file atomically. A path ending in .pt or .pth gets "
     "PyTorch's own format (what torch.save of PyTorch 1.13 writes, and torch.load reads): "
     "tensors, maps, lists, numbers, strings, bools and nil, nested; tensors keep their "
     "views (offset, size, stride) over shared storages, requires_grad and nn.Parameter; "
     "a map (a state dict) loads as a dict. Any other path: a tensor as NumPy .npy, or a map "
     "of tensors (a state dict) as .npz; compressed=true deflates the .npz members, as "
     "numpy.savez_compressed does.",
     "save(arange(3), \"x.npy\")\n"
     "print(load(\"x.npy\"))\n"
     "save({\"step\": 3, \"w\": ones(2)}, \"ckpt.pt\")\n"
     "print(load(\"ckpt.pt\"))"},
    {"load", HELP_TENSORS, 0,
     "load(path)",
     "Reads a .npy file as a tensor, a .npz file as a map of tensors (NumPy's formats; "
     ".npz members stored or deflated), or a file torch.save wrote (PyTorch 1.6 and later: "
     "a zip of data.pkl, data/N, version) as the value saved, whatever the file's name: "
     "tensors (float32, float64, int64, bool; PyTorch's int32, int16, int8 and uint8 as "
     "int64) with their views and shared storages, requires_grad and nn.Parameter, maps "
     "(dict and OrderedDict: a state dict loads into load_state_dict), lists, tuples (as "
     "lists), numbers, strings, bools and None. The pickle in a .pt is read by a restricted "
     "unpickler: only the opcodes and globals torch.save writes for these values; any "
     "other global (os.system ...), opcode or storage type is an error naming the file and "
     "it, and nothing is ever called. A zip may hold at most 4 GiB uncompressed in all, and "
     "no two of its entries may share member data: beyond that, a clear error before "
     "anything is inflated. Ctrl-C stops a long load with Interrupted.",
     "save({\"w\": ones(2)}, \"state.npz\")\n"
     "print(load(\"state.npz\"))"},
    {"load_csv", HELP_TENSORS, 0,
     "load_csv(path, header=true)",
     "Reads a CSV file of numbers as a float32 tensor [rows, columns], skipping the "
     "header line when header is true.",
     "# given data.csv with a header line:\n"
     "let data = load_csv(\"data.csv\")\n"
     "print(data.shape)"},
    {"Tensor.shape", HELP_TENSOR, 0,
     "t.shape",
     "The size of each dimension, as a list ([] for a scalar).",
     "print(zeros(2, 3).shape)"},
    {"Tensor.ndim", HELP_TENSOR, 0,
     "t.ndim",
     "The number of dimensions.",
     "print(zeros(2, 3).ndim)"},
    {"Tensor.dtype", HELP_TENSOR, 0,
     "t.dtype",
     "The element type: float32, float64, int64 or bool.",
     "print(arange(3).dtype, zeros(1).dtype == float32)"},
    {"Tensor.requires_grad", HELP_TENSOR, 0,
     "t.requires_grad",
     "True when operations on t are recorded for autograd; settable on leaves (float "
     "tensors only).",
     "let w = zeros(2)\n"
     "w.requires_grad = true\n"
     "print(w.requires_grad)"},
    {"Tensor.grad", HELP_TENSOR, 0,
     "t.grad",
     "The gradient accumulated by backward() (leaves only, unless retain_grad() was "
     "called); nil before. May be assigned a tensor of the same shape or nil.",
     "let x = tensor(3.0, requires_grad=true)\n"
     "(x * x).backward()\n"
     "print(x.grad)"},
    {"Tensor.grad_fn", HELP_TENSOR, 0,
     "t.grad_fn",
     "The graph node that produced t (nil for leaves and tensors without history).",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 2).grad_fn)"},
    {"Tensor.is_leaf", HELP_TENSOR, 0,
     "t.is_leaf",
     "True for tensors created by the user rather than by a recorded operation.",
     "let x = ones(2, requires_grad=true)\n"
     "print(x.is_leaf, (x + 1).is_leaf)"},
    {"Tensor.T", HELP_TENSOR, 0,
     "t.T",
     "The tensor with its dimensions reversed (the transpose of a matrix), a view.",
     "print(tensor([[1, 2]]).T)"},
    {"Tensor.data", HELP_TENSOR, 0,
     "t.data",
     "A detached alias of t: the same elements, no history and a version counter of its "
     "own, so changing it in place bypasses autograd's checks (detach() shares t's "
     "counter). t.data = other gives t other's elements (and shape and dtype), keeping "
     "t's requires_grad, as PyTorch's.",
     "let w = ones(2, requires_grad=true)\n"
     "w.data.mul_(2)\n"
     "w.data += 1\n"
     "print(w)"},
    {"Tensor._version", HELP_TENSOR, 0,
     "t._version",
     "The version counter, bumped by every in-place change; autograd uses it to detect "
     "modified saved tensors.",
     "let a = zeros(2)\n"
     "a.add_(1)\n"
     "print(a._version)"},
    {"Tensor.item", HELP_TENSOR, 0,
     "t.item()",
     "The value of a one-element tensor as a number (or bool).",
     "print(tensor([2.5]).item())"},
    {"Tensor.numpy", HELP_TENSOR, 0,
     "t.numpy()",
     "The NumPy array of t: the tensor itself, since NumPy's arrays are Ag's tensors "
     "(PyTorch's t.numpy() shares the memory too). A tensor that requires grad is "
     "PyTorch's error: call t.detach().numpy().",
     "let t = arange(3)\n"
     "print(t.numpy())"},
    {"Tensor.tolist", HELP_TENSOR, 0,
     "t.tolist()",
     "The elements as (nested) lists of numbers.",
     "print(arange(4).reshape(2, 2).tolist())"},
    {"Tensor.size", HELP_TENSOR, 0,
     "t.size(dim=nil)",
     "The shape as a list, or the size of one dimension.",
     "print(zeros(2, 3).size(), zeros(2, 3).size(-1))"},
    {"Tensor.dim", HELP_TENSOR, 0,
     "t.dim()",
     "The number of dimensions (the same as t.ndim).",
     "print(zeros(2, 3).dim())"},
    {"Tensor.detach_", HELP_TENSOR, 0,
     "t.detach_()",
     "Detaches t itself from its history, in place.",
     "let y = ones(2, requires_grad=true) * 2\n"
     "y.detach_()\n"
     "print(y.requires_grad)"},
    {"Tensor.requires_grad_", HELP_TENSOR, 0,
     "t.requires_grad_(flag=true)",
     "Sets requires_grad in place and returns t.",
     "print(zeros(2).requires_grad_())"},
    {"Tensor.element_size", HELP_TENSOR, 0,
     "t.element_size() / t.itemsize",
     "The bytes one element of t takes: 4 for float32, 2 for float16, 1 for int8 ...",
     "print(zeros(2).element_size(), zeros(2, dtype=int8).itemsize)"},
    {"Tensor.int", HELP_TENSOR, 0,
     "t.int() / t.short() / t.half() / t.bfloat16()",
     "t converted to int32, int16, float16 or bfloat16 (as t.to(dtype); floats "
     "truncate toward zero, out-of-range integers wrap around).",
     "print(tensor([1.7, -1.7, 70000.0]).int())"},
    {"Tensor.char", HELP_TENSOR, 0,
     "t.char()",
     "t converted to int8 (floats truncate toward zero, then wrap: 300.0 is 44).",
     "print(tensor([1.7, -1.7, 300.0]).char())"},
    {"Tensor.byte", HELP_TENSOR, 0,
     "t.byte()",
     "t converted to uint8 (floats truncate toward zero, then wrap: -1.0 is 255).",
     "print(tensor([1.7, -1.0, 300.0]).byte())"},
    {"Tensor.retain_grad", HELP_TENSOR, 0,
     "t.retain_grad()",
     "Makes a non-leaf tensor keep its .grad after backward().",
     "let x = ones(2, requires_grad=true)\n"
     "let y = x * 2\n"
     "y.retain_grad()\n"
     "y.sum().backward()\n"
     "print(y.grad)"},
    {"Tensor.register_hook", HELP_TENSOR, 0,
     "t.register_hook(fn)",
     "fn(grad) runs when t's gradient is computed; a non-nil return replaces the "
     "gradient. On a leaf, hooks run before accumulation.",
     "let x = ones(2, requires_grad=true)\n"
     "x.register_hook(fn(g) { return g * 10 })\n"
     "x.sum().backward()\n"
     "print(x.grad)"},
    {"Tensor.backward", HELP_TENSOR, 0,
     "t.backward(gradient=nil, retain_graph=false, create_graph=false, inputs=nil)",
     "Computes the gradient of t with respect to the leaves of its graph and adds it to "
     "their .grad. A non-scalar t needs gradient. Without retain_graph the graph's saved "
     "tensors are freed; create_graph records the backward pass for higher derivatives.",
     "let x = tensor([1.0, 2.0], requires_grad=true)\n"
     "let y = (x ** 2).sum()\n"
     "y.backward()\n"
     "print(x.grad)"},
    {"Tensor.to", HELP_TENSOR, 0,
     "t.to(dtype) / t.to(\"cpu\", dtype=nil)",
     "A copy converted to dtype (t itself when it already has it). The device \"cpu\" is "
     "the one Ag has: t.to(\"cpu\") is t; another device is an error.",
     "print(arange(3).to(float64))"},
    {"Tensor.type", HELP_TENSOR, 0,
     "t.type() / t.type(dtype)",
     "PyTorch's type string of t (\"torch.FloatTensor\", \"torch.LongTensor\", ...); with a "
     "dtype (or such a string), t converted as t.to(dtype).",
     "print(tensor([1.5]).type(), tensor([1.5]).type(int))"},
    {"Tensor.contiguous", HELP_TENSOR, 0,
     "t.contiguous()",
     "t with its elements laid out in row-major order (a copy only when needed).",
     "print(zeros(2, 3).T.contiguous().is_contiguous())"},
    {"Tensor.is_contiguous", HELP_TENSOR, 0,
     "t.is_contiguous()",
     "True when the elements are laid out in row-major order without gaps.",
     "print(zeros(2, 3).T.is_contiguous())"},
    {"is_floating_point", HELP_TENSORS, HELP_TENSOR_METHOD,
     "is_floating_point(t) / t.is_floating_point()",
     "Whether t's dtype is a float dtype (float32, float64).",
     "print(tensor([1.0]).is_floating_point(), is_floating_point(tensor([1])))"},
    {"Tensor.view", HELP_TENSOR, 0,
     "t.view(...shape)",
     "The same storage seen with a new shape (t must be contiguous); -1 infers one size.",
     "print(arange(6).view(3, 2))"},
    {"Tensor.expand", HELP_TENSOR, 0,
     "t.expand(...shape)",
     "A view repeating dimensions of size 1 to the given shape without copying (-1 keeps "
     "a size).",
     "print(tensor([[1], [2]]).expand(2, 3))"},
    {"Tensor.repeat", HELP_TENSOR, 0,
     "t.repeat(...sizes)",
     "A copy of t tiled sizes[d] times along each dim (RepeatBackward0); more sizes than "
     "t has dims add leading dims. Sizes may be given as numbers or one list.",
     "print(tensor([1, 2]).repeat(2, 2))"},
    {"Tensor.expand_as", HELP_TENSOR, 0,
     "t.expand_as(other)",
     "t expanded to other's shape.",
     "print(tensor([1]).expand_as(zeros(3)))"},
    {"Tensor.view_as", HELP_TENSOR, 0,
     "t.view_as(other)",
     "t.view(other's shape).",
     "print(arange(6).view_as(zeros(2, 3)))"},
    {"Tensor.nelement", HELP_TENSOR, 0,
     "t.nelement()",
     "The number of elements (numel).",
     "print(zeros(2, 3).nelement())"},
    {"Tensor.new_zeros", HELP_TENSOR, 0,
     "t.new_zeros(...shape, dtype=nil, requires_grad=false)",
     "A new tensor with t's dtype unless dtype= says otherwise (new_tensor copies data, "
     "a tensor detached).",
     "let w = zeros(2, dtype=float64)\n"
     "print(w.new_zeros(2, 3).dtype, w.new_full([2], 7), w.new_tensor([1, 2]))"},
    {"Tensor.new_ones", HELP_TENSOR, 0,
     "t.new_ones(...shape, dtype=nil, requires_grad=false)",
     "Ones with t's dtype unless dtype= says otherwise.",
     "print(zeros(1, dtype=int64).new_ones(2))"},
    {"Tensor.new_empty", HELP_TENSOR, 0,
     "t.new_empty(...shape, dtype=nil, requires_grad=false)",
     "A tensor to fill with t's dtype (its elements zeros, see empty).",
     "print(zeros(1).new_empty(2, 2).shape)"},
    {"Tensor.new_full", HELP_TENSOR, 0,
     "t.new_full(shape, value, dtype=nil, requires_grad=false)",
     "A tensor filled with value, in t's dtype unless dtype= says otherwise.",
     "print(zeros(1, dtype=int64).new_full([2], 7.9))"},
    {"Tensor.new_tensor", HELP_TENSOR, 0,
     "t.new_tensor(data, dtype=nil, requires_grad=false)",
     "tensor(data) in t's dtype unless dtype= says otherwise (a tensor is copied, detached).",
     "print(zeros(1, dtype=float64).new_tensor([1, 2]))"},
    {"Tensor.add_", HELP_TENSOR, 0,
     "t.add_(other, alpha=1)",
     "Adds other (times alpha) into t in place (bumps t._version). With alpha, under "
     "t + alpha * other rounds once (a fused multiply-add), as ATen's kernel and so "
     "PyTorch's optimizers (AddBackward0 keeps alpha when recorded).",
     "let a = zeros(2)\n"
     "a.add_(1)\n"
     "a.add_(tensor([1.0, 2.0]), alpha=0.5)\n"
     "print(a)"},
    {"Tensor.addcmul_", HELP_TENSOR, 0,
     "t.addcmul_(tensor1, tensor2, value=1)",
     "t += value * tensor1 * tensor2 in place, rounding as ATen's kernel (one fused "
     "multiply-add of value * tensor1 and tensor2); Adam's and RMSprop's running squares "
     "use it (AddcmulBackward0 when recorded).",
     "let a = zeros(2)\n"
     "a.addcmul_(tensor([1.0, 2.0]), tensor([3.0, 4.0]), value=0.5)\n"
     "print(a)"},
    {"Tensor.addcdiv_", HELP_TENSOR, 0,
     "t.addcdiv_(tensor1, tensor2, value=1)",
     "t += value * tensor1 / tensor2 in place, rounding as ATen's kernel ((value * tensor1) "
     "/ tensor2, then the sum); the update of Adam, RMSprop and Adagrad (AddcdivBackward0 "
     "when recorded).",
     "let a = ones(2)\n"
     "a.addcdiv_(tensor([1.0, 2.0]), tensor([4.0, 4.0]), value=-1)\n"
     "print(a)"},
    {"Tensor.lerp_", HELP_TENSOR, 0,
     "t.lerp_(end, weight)",
     "t + weight * (end - t) in place, weight a number or a tensor, in ATen's two forms "
     "(below 0.5 from t's side, else from end's, each one fused multiply-add), so the bits "
     "are PyTorch's; recorded as LerpBackward0 (a number) or LerpBackward1.",
     "let a = zeros(2)\n"
     "a.lerp_(tensor([1.0, 2.0]), 0.25)\n"
     "print(a)"},
    {"Tensor.sub_", HELP_TENSOR, 0,
     "t.sub_(other)",
     "Subtracts other from t in place.",
     "let a = ones(2)\n"
     "a.sub_(1)\n"
     "print(a)"},
    {"Tensor.mul_", HELP_TENSOR, 0,
     "t.mul_(other)",
     "Multiplies t by other in place.",
     "let a = ones(2)\n"
     "a.mul_(3)\n"
     "print(a)"},
    {"Tensor.div_", HELP_TENSOR, 0,
     "t.div_(other)",
     "Divides t by other in place.",
     "let a = ones(2)\n"
     "a.div_(4)\n"
     "print(a)"},
    {"Tensor.cpu", HELP_TENSOR, 0,
     "t.cpu()",
     "t itself: Ag computes on the CPU only (PyTorch's t.cpu(); t.to(\"cpu\") too).",
     "print(ones(2).cpu())"},
    {"Tensor.device", HELP_TENSOR, 0,
     "t.device",
     "The string \"cpu\", the one device Ag computes on.",
     "print(ones(2).device)"},
    {"Tensor.is_cuda", HELP_TENSOR, 0,
     "t.is_cuda",
     "false: Ag computes on the CPU only.",
     "print(ones(2).is_cuda)"},
    {"Tensor.pow_", HELP_TENSOR, 0,
     "t.pow_(exponent)",
     "Raises t to exponent in place (what `t **= exponent` calls).",
     "let a = full([2], 3.0)\n"
     "a.pow_(2)\n"
     "print(a)"},
    {"Tensor.remainder_", HELP_TENSOR, 0,
     "t.remainder_(other)",
     "t % other in place, with the sign of the divisor (what `t %= other` calls).",
     "let a = tensor([5.0, -5.0])\n"
     "a.remainder_(3)\n"
     "print(a)"},
    {"Tensor.floor_divide_", HELP_TENSOR, 0,
     "t.floor_divide_(other)",
     "t // other in place, rounded toward minus infinity (what `t //= other` calls).",
     "let a = tensor([7.0, -7.0])\n"
     "a.floor_divide_(2)\n"
     "print(a)"},
    {"Tensor.zero_", HELP_TENSOR, 0,
     "t.zero_()",
     "Fills t with zeros in place.",
     "print(ones(2).zero_())"},
    {"Tensor.fill_", HELP_TENSOR, 0,
     "t.fill_(value)",
     "Fills t with value in place.",
     "print(zeros(2).fill_(7))"},
    {"Tensor.copy_", HELP_TENSOR, 0,
     "t.copy_(src)",
     "Copies src (broadcast to t's shape) into t in place.",
     "print(zeros(2).copy_(tensor([1.0, 2.0])))"},
    {"Tensor.clamp_", HELP_TENSOR, 0,
     "t.clamp_(min=nil, max=nil)",
     "Clamps t in place.",
     "print(tensor([-1.0, 2.0]).clamp_(min=0))"},
    {"Tensor.normal_", HELP_TENSOR, 0,
     "t.normal_(mean=0, std=1, generator=nil)",
     "Fills t with normal random numbers in place.",
     "print(zeros(3).normal_().shape)"},
    {"Tensor.uniform_", HELP_TENSOR, 0,
     "t.uniform_(from=0, to=1, generator=nil)",
     "Fills t with uniform random numbers in [from, to) in place.",
     "print(zeros(3).uniform_(-1, 1).shape)"},
    {"Tensor.random_", HELP_TENSOR, 0,
     "t.random_(generator=nil) / t.random_(to) / t.random_(from, to)",
     "Fills t in place with integers drawn uniformly from [from, to) (from defaults to "
     "0), or with no bounds from every integer the dtype holds exactly ([0, 2^63) for "
     "int64, [0, 2^24] for float32, [0, 2^53] for float64), drawn as PyTorch draws "
     "them.",
     "manual_seed(0)\n"
     "print(zeros(4, dtype=int64).random_(10))"},
    {"Tensor.exponential_", HELP_TENSOR, 0,
     "t.exponential_(lambd=1, generator=nil)",
     "Fills t in place with exponentially distributed numbers of rate lambd.",
     "print(zeros(3).exponential_().shape)"},
    {"Tensor.erfinv_", HELP_TENSOR, 0,
     "t.erfinv_()",
     "The inverse error function of each element, in place (PyTorch's algorithm; "
     "records no graph).",
     "print(tensor([0.5]).erfinv_())"},
    {"Tensor.bernoulli_", HELP_TENSOR, 0,
     "t.bernoulli_(p=0.5, generator=nil)",
     "Fills t in place with 1 (probability p) or 0.",
     "print(zeros(3).bernoulli_(1.0))"},
    {"Tensor.masked_fill_", HELP_TENSOR, 0,
     "t.masked_fill_(mask, value)",
     "masked_fill in place (a version bump; MaskedFillBackward0 becomes t's history).",
     "let t = tensor([1.0, 2.0, 3.0])\n"
     "print(t.masked_fill_(t > 1, 0), t._version)"},
    {"Tensor.scatter_", HELP_TENSOR, 0,
     "t.scatter_(dim, index, src or value, reduce=nil)",
     "scatter in place: writes (or with reduce= adds or multiplies) into t itself.",
     "let t = zeros(3)\n"
     "print(t.scatter_(0, tensor([2, 0]), tensor([5.0, 6.0])))"},
    {"Tensor.scatter_add_", HELP_TENSOR, 0,
     "t.scatter_add_(dim, index, src)",
     "scatter_add in place: repeated indices accumulate into t.",
     "let t = zeros(3)\n"
     "print(t.scatter_add_(0, tensor([1, 1]), tensor([5.0, 6.0])))"},
    {"Tensor.index_add_", HELP_TENSOR, 0,
     "t.index_add_(dim, index, source, alpha=1)",
     "index_add in place.",
     "let t = zeros(2, 2)\n"
     "print(t.index_add_(0, tensor([1, 1]), ones(2, 2)))"},
    {"no_grad", HELP_AUTOGRAD, 0,
     "no_grad()",
     "A context for `with`: no operation inside records a graph (for evaluation and "
     "parameter updates).",
     "let w = ones(2, requires_grad=true)\n"
     "with no_grad() { print((w * 2).requires_grad) }"},
    {"enable_grad", HELP_AUTOGRAD, 0,
     "enable_grad()",
     "A context that turns grad mode back on inside a no_grad block.",
     "with no_grad() { with enable_grad() { print(is_grad_enabled()) } }"},
    {"set_grad_enabled", HELP_AUTOGRAD, 0,
     "set_grad_enabled(flag)",
     "A context that turns grad mode on or off, as flag says.",
     "with set_grad_enabled(false) { print(is_grad_enabled()) }"},
    {"is_grad_enabled", HELP_AUTOGRAD, 0,
     "is_grad_enabled()",
     "True when operations are being recorded.",
     "print(is_grad_enabled())"},
    {"is_anomaly_enabled", HELP_AUTOGRAD, 0,
     "is_anomaly_enabled()",
     "True inside `with autograd.detect_anomaly() { }`, where a NaN made by a backward "
     "function is an error naming the forward operation and its line.",
     "print(is_anomaly_enabled())"},
    {"autograd.is_anomaly_enabled", HELP_AUTOGRAD, 0,
     "autograd.is_anomaly_enabled()",
     "The same as the global is_anomaly_enabled().",
     "with autograd.detect_anomaly() { print(autograd.is_anomaly_enabled()) }"},
    {"Function", HELP_AUTOGRAD, 0,
     "class MyFn : Function { fn forward(ctx, ...) fn backward(ctx, ...grads) }",
     "The base class of custom autograd functions: forward computes the result, backward "
     "returns one gradient per input (or a list); ctx.save_for_backward(...), "
     "ctx.saved_tensors and ctx.needs_input_grad carry state. Call with MyFn.apply(...); "
     "its node prints as <MyFnBackward>. For forward_ad, fn jvp(ctx, ...tangents) returns "
     "the outputs' tangents (forward() then sees the primals).",
     "class Double : Function {\n"
     "  fn forward(ctx, x) { return x * 2 }\n"
     "  fn backward(ctx, g) { return g * 2 }\n"
     "}\n"
     "let x = ones(2, requires_grad=true)\n"
     "Double.apply(x).sum().backward()\n"
     "print(x.grad)"},
    {"autograd.grad", HELP_AUTOGRAD, 0,
     "autograd.grad(outputs, inputs, grad_outputs=nil, retain_graph=nil, create_graph=false, allow_unused=false)",
     "The gradients of outputs with respect to inputs, as a list; .grad is left "
     "untouched. With create_graph=true the result can be differentiated again.",
     "let x = tensor(2.0, requires_grad=true)\n"
     "let [g] = autograd.grad(x ** 3, [x], create_graph=true)\n"
     "print(g, autograd.grad(g, [x])[0])"},
    {"autograd.backward", HELP_AUTOGRAD, 0,
     "autograd.backward(tensors, grad_tensors=nil, retain_graph=false, create_graph=false, inputs=nil)",
     "Runs backward from several tensors at once, accumulating into the leaves' .grad.",
     "let x = ones(2, requires_grad=true)\n"
     "autograd.backward([x.sum(), (x * 2).sum()])\n"
     "print(x.grad)"},
    {"autograd.forward_ad", HELP_AUTOGRAD, 0,
     "autograd.forward_ad",
     "Forward-mode AD, PyTorch 1.13's torch.autograd.forward_ad: inside `with "
     "dual_level()`, make_dual(x, v) gives x a tangent v, every differentiable op computes "
     "its result's tangent (its jvp rule), and unpack_dual(y).tangent is the "
     "Jacobian-vector product J v. One level at a time; leaving it drops every tangent.",
     "let fwAD = autograd.forward_ad\n"
     "with fwAD.dual_level() {\n"
     "  let x = fwAD.make_dual(tensor([1.0, 2.0]), tensor([1.0, 0.0]))\n"
     "  print(fwAD.unpack_dual(x * x).tangent)\n"
     "}"},
    {"autograd.forward_ad.dual_level", HELP_AUTOGRAD, 0,
     "with autograd.forward_ad.dual_level() { ... }",
     "A forward AD level for the block (enter() returns it: 0). A nested one is PyTorch's "
     "\"Nested forward mode AD is not supported at the moment\"; at the end every "
     "tangent made in the block is dropped.",
     "with autograd.forward_ad.dual_level() as level { print(level) }"},
    {"autograd.forward_ad.make_dual", HELP_AUTOGRAD, 0,
     "autograd.forward_ad.make_dual(tensor, tangent)",
     "A view of tensor (ViewBackward0 when it requires grad) carrying tangent, as is when "
     "laid out as tensor, else a copy. Both must be float and of the same shape (PyTorch's "
     "errors otherwise); outside a level: \"Trying to create a dual Tensor for forward AD "
     "but no level exists ...\".",
     "let fwAD = autograd.forward_ad\n"
     "with fwAD.dual_level() { print(fwAD.make_dual(ones(2), zeros(2))) }"},
    {"autograd.forward_ad.unpack_dual", HELP_AUTOGRAD, 0,
     "autograd.forward_ad.unpack_dual(tensor)",
     "UnpackedDualTensor(primal, tangent): a view of tensor without its tangent (its "
     "history kept: the node Identity) and the tangent (nil when it has none, or outside "
     "a level). Read by name or unpacked: let p, t = unpack_dual(y).",
     "let fwAD = autograd.forward_ad\n"
     "with fwAD.dual_level() {\n"
     "  let p, t = fwAD.unpack_dual(fwAD.make_dual(ones(2), ones(2)).exp())\n"
     "  print(p, t)\n"
     "}"},
    {"autograd.forward_ad.enter_dual_level", HELP_AUTOGRAD, 0,
     "autograd.forward_ad.enter_dual_level() / exit_dual_level(level=nil)",
     "What dual_level() does on entry and exit, as two calls (PyTorch's names).",
     "let fwAD = autograd.forward_ad\n"
     "print(fwAD.enter_dual_level())\n"
     "fwAD.exit_dual_level()"},
    {"func", HELP_AUTOGRAD, 0,
     "func",
     "functorch 1.13's function transforms (torch.func in PyTorch 2; also named functorch, "
     "and torch.func): grad, grad_and_value, vjp, jacrev, hessian, vmap, functional_call. "
     "A transform takes a function and returns a function; they compose "
     "(func.grad(func.grad(f)), func.vmap(func.grad(f))) and their results carry no graph. "
     "jacfwd and jvp (forward mode) are not there yet.",
     "print(func.grad(fn(x) { return (x ** 2).sum() })(tensor([1.0, 2.0])))"},
    {"functorch", HELP_AUTOGRAD, 0,
     "functorch",
     "The module func under the name of PyTorch 1.13's package: `import functorch` then "
     "functorch.vmap, functorch.grad ...",
     "import functorch\n"
     "print(functorch.vmap(fn(r) { return r.sum() })(ones(2, 3)))"},
    {"func.grad", HELP_AUTOGRAD, 0,
     "func.grad(f, argnums=0, has_aux=false)",
     "A function that returns the gradient of f (which must return a 0-d tensor) with "
     "respect to its argument argnums (a tuple of positions gives a tuple of gradients; an "
     "argument may be a list, tuple or map of tensors, and its gradient has that shape). "
     "has_aux: f returns (output, aux), and the result is (gradient, aux). Nested "
     "transforms differentiate again: func.grad(func.grad(f)) is the second derivative.",
     "let g = func.grad(fn(x, y) { return (x * y).sum() }, argnums=(0, 1))\n"
     "print(g(tensor([1.0, 2.0]), tensor([3.0, 4.0])))\n"
     "print(func.grad(func.grad(fn(t) { return t ** 3 }))(tensor(2.0)))"},
    {"func.grad_and_value", HELP_AUTOGRAD, 0,
     "func.grad_and_value(f, argnums=0, has_aux=false)",
     "As func.grad, returning (gradient, value of f); with has_aux, (gradient, (value, "
     "aux)).",
     "print(func.grad_and_value(fn(x) { return (x ** 2).sum() })(tensor([1.0, 3.0])))"},
    {"func.vjp", HELP_AUTOGRAD, 0,
     "func.vjp(f, ...primals, has_aux=false)",
     "Runs f(...primals) and returns (output, vjp_fn): vjp_fn(cotangents) gives the "
     "vector-Jacobian products, a tuple with one entry per primal; cotangents have the "
     "output's structure. With has_aux, (output, vjp_fn, aux).",
     "let [out, vjp_fn] = func.vjp(fn(x) { return x.sin() }, tensor([0.0, 1.0]))\n"
     "print(out, vjp_fn(ones(2)))"},
    {"func.jvp", HELP_AUTOGRAD, 0,
     "func.jvp(f, primals, tangents, strict=false, has_aux=false)",
     "Forward mode (autograd.forward_ad): (f(*primals), J tangents) in one pass, primals "
     "and tangents tuples of the same structure (functorch 1.13's errors otherwise). With "
     "has_aux, (output, jvp, aux).",
     "print(func.jvp(fn(x) { return x.sin() }, (tensor([0.0, 1.0]),), (ones(2),)))"},
    {"func.jacfwd", HELP_AUTOGRAD, 0,
     "func.jacfwd(f, argnums=0, has_aux=false)",
     "The Jacobian of f with respect to argument argnums by forward mode, one forward "
     "pass per input element: output.shape + input.shape. jacfwd(jacrev(f)) is the "
     "Hessian (forward-over-reverse).",
     "print(func.jacfwd(fn(x) { return x.exp() })(tensor([0.0, 1.0])))"},
    {"func.jacrev", HELP_AUTOGRAD, 0,
     "func.jacrev(f, argnums=0, has_aux=false)",
     "A function that returns the Jacobian of f with respect to argument argnums, by "
     "reverse mode (one vector-Jacobian product per output element): shape "
     "output.shape + input.shape; a tuple argnums gives one Jacobian per argument.",
     "print(func.jacrev(fn(x) { return x ** 2 })(tensor([1.0, 2.0])))"},
    {"func.hessian", HELP_AUTOGRAD, 0,
     "func.hessian(f, argnums=0)",
     "A function that returns the Hessian of the scalar function f: jacrev of jacrev "
     "(functorch's is jacfwd of jacrev; the values agree).",
     "print(func.hessian(fn(x) { return (x ** 3).sum() })(tensor([1.0, 2.0])))"},
    {"func.vmap", HELP_AUTOGRAD, 0,
     "func.vmap(f, in_dims=0, out_dims=0, randomness=\"error\")",
     "A function that maps f over a dimension of its inputs: in_dims gives, per argument, "
     "the dimension to map (nil: not mapped; a tuple, list or map for nested arguments), "
     "out_dims where the mapped dimension goes in the outputs. Inside, f sees one sample "
     "(a BatchedTensor, whose shape has no batch dimension) and each operation runs once "
     "for the whole batch through its batching rule; an operation without one runs sample "
     "by sample with a one-time warning naming it (the rules cover elementwise ops with "
     "broadcasting, matmul and linear, reductions, shape ops and indexing, conv and pooling, "
     "softmax and the losses). randomness: \"error\" refuses random "
     "operations, \"different\" draws per sample, \"same\" once for all. vmap nests, and "
     "func.vmap(func.grad(loss), in_dims=(nil, 0, 0))(params, xs, ys) gives per-sample "
     "gradients.",
     "print(func.vmap(fn(a, b) { return a.dot(b) })(ones(3, 2), ones(3, 2)))\n"
     "print(func.vmap(fn(r) { return r * 2 }, in_dims=1, out_dims=1)(ones(2, 3)).shape)"},
    {"func.functional_call", HELP_AUTOGRAD, 0,
     "func.functional_call(module, params_and_buffers, args, kwargs=nil)",
     "Calls module(...args) with its parameters and buffers replaced by the tensors of "
     "params_and_buffers (a map from dotted names as named_parameters() gives them, or a "
     "tuple of maps); the module's own tensors are put back afterwards. args is a tuple, "
     "or one value.",
     "let lin = nn.Linear(2, 1)\n"
     "print(func.functional_call(lin, {\"weight\": ones(1, 2), \"bias\": zeros(1)}, (tensor([1.0, 2.0]),)))"},
    {"autograd.functional", HELP_AUTOGRAD, 0,
     "autograd.functional",
     "PyTorch 1.13's torch.autograd.functional, written in Ag (source(autograd.functional.vjp)): "
     "vjp, jvp, vhp, hvp, jacobian and hessian of a function of a tensor or of a tuple of "
     "tensors, with create_graph (results with history, to differentiate again) and strict "
     "(an error, PyTorch's, when an output does not depend on an input, instead of zeros). "
     "jvp and hvp use the double-backward trick, so they need reverse mode only.",
     "print(autograd.functional.jacobian(fn(x) { return x ** 2 }, tensor([1.0, 2.0])))"},
    {"autograd.functional.vjp", HELP_AUTOGRAD, 0,
     "autograd.functional.vjp(func, inputs, v=nil, create_graph=false, strict=false)",
     "(func(inputs), v^T J): the outputs and the vector-Jacobian product, shaped as the "
     "inputs. inputs is a tensor or a tuple of tensors, and so is each result; v, shaped as "
     "the outputs, may be nil when func returns one element.",
     "let [out, g] = autograd.functional.vjp(fn(x) { return x.exp().sum() }, zeros(3))\n"
     "print(out, g)"},
    {"autograd.functional.jvp", HELP_AUTOGRAD, 0,
     "autograd.functional.jvp(func, inputs, v=nil, create_graph=false, strict=false)",
     "(func(inputs), J v): the outputs and the Jacobian-vector product, shaped as the "
     "outputs; v, shaped as the inputs, may be nil for a one-element input. Computed by "
     "the double-backward trick (a vjp of a vjp), as PyTorch 1.13.",
     "print(autograd.functional.jvp(fn(x) { return x * x }, tensor([1.0, 2.0]), ones(2)))"},
    {"autograd.functional.jacobian", HELP_AUTOGRAD, 0,
     "autograd.functional.jacobian(func, inputs, create_graph=false, strict=false, vectorize=false, strategy=\"reverse-mode\")",
     "The Jacobian of func at inputs, of shape output.shape + input.shape: a tensor, or a "
     "tuple per output (of a tuple per input) as the arguments were given. vectorize=true "
     "takes PyTorch's vjps of all outputs at once, one per basis row (the same numbers as "
     "PyTorch's batched ones; Ag runs them one after another). strategy=\"forward-mode\" "
     "needs forward-mode AD and fails with PyTorch's errors.",
     "print(autograd.functional.jacobian(fn(x, y) { return x * y }, (tensor([1.0, 2.0]), tensor([3.0, 4.0]))))"},
    {"autograd.functional.hessian", HELP_AUTOGRAD, 0,
     "autograd.functional.hessian(func, inputs, create_graph=false, strict=false, vectorize=false, outer_jacobian_strategy=\"reverse-mode\")",
     "The Hessian of func, which must return one element: the Jacobian of its gradient, "
     "of shape input.shape + input.shape (a tuple of tuples for a tuple of inputs).",
     "print(autograd.functional.hessian(fn(x) { return (x ** 3).sum() }, tensor([1.0, 2.0])))"},
    {"autograd.functional.vhp", HELP_AUTOGRAD, 0,
     "autograd.functional.vhp(func, inputs, v=nil, create_graph=false, strict=false)",
     "(func(inputs), v^T H): the output of func (one element) and the vector-Hessian "
     "product, shaped as the inputs.",
     "print(autograd.functional.vhp(fn(x) { return (x ** 3).sum() }, tensor([1.0, 2.0]), ones(2)))"},
    {"autograd.functional.hvp", HELP_AUTOGRAD, 0,
     "autograd.functional.hvp(func, inputs, v=nil, create_graph=false, strict=false)",
     "(func(inputs), H v): the output of func (one element) and the Hessian-vector "
     "product, by the double-backward trick (equal to vhp's for a function with a "
     "symmetric Hessian).",
     "print(autograd.functional.hvp(fn(x) { return (x ** 3).sum() }, tensor([1.0, 2.0]), ones(2)))"},
    {"autograd.graph", HELP_AUTOGRAD, 0,
     "autograd.graph",
     "PyTorch's torch.autograd.graph: saved_tensors_hooks and save_on_cpu; and the "
     "graph's memory made visible: saved_bytes(t), saved_tensor_count(t), "
     "memory_allocated(), max_memory_allocated(), reset_peak_memory_stats().",
     "print(type(autograd.graph))"},
    {"autograd.graph.saved_tensors_hooks", HELP_AUTOGRAD, 0,
     "with autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook) { ... }",
     "Every tensor a node recorded inside the block saves for backward (a custom "
     "Function's ctx.save_for_backward included) is handed to pack_hook(tensor), and the "
     "node keeps what it returns instead; backward gets the "
     "tensor back from unpack_hook(packed), which must return a tensor. The innermost "
     "pair applies; a pack hook's own operations save plainly. utils.checkpoint's "
     "use_reentrant=false is built on it.",
     "let x = tensor([1.0, 2.0], requires_grad=true)\n"
     "let y = nil\n"
     "with autograd.graph.saved_tensors_hooks(fn(t) { print(\"pack\", t); return t }, fn(t) { return t }) {\n"
     "  y = (x * x).sum()\n"
     "}\n"
     "y.backward()\n"
     "print(x.grad)"},
    {"autograd.graph.save_on_cpu", HELP_AUTOGRAD, 0,
     "with autograd.graph.save_on_cpu(pin_memory=false) { ... }",
     "Saved tensors kept on the CPU and moved back to their device for backward: with "
     "Ag's CPU tensors the packed value is the tensor itself.",
     "with autograd.graph.save_on_cpu() { print(ones(2).sum()) }"},
    {"autograd.graph.saved_bytes", HELP_GRAPH, 0,
     "autograd.graph.saved_bytes(t) / autograd.graph.saved_tensor_count(t)",
     "The bytes of the tensors the graph behind t (a tensor or a node) keeps for backward, "
     "each storage counted once (a weight used by many nodes counts once), a custom "
     "Function's ctx.saved_tensors included and packed values not; 0 once backward freed "
     "them. saved_tensor_count counts the saved tensors (one saved twice counts twice).",
     "let x = ones(1000, requires_grad=true)\n"
     "let y = (x.exp() * x).sum()\n"
     "print(autograd.graph.saved_bytes(y), autograd.graph.saved_tensor_count(y))"},
    {"autograd.graph.memory_allocated", HELP_GRAPH, 0,
     "autograd.graph.memory_allocated() / max_memory_allocated() / reset_peak_memory_stats()",
     "Ag's own accounting of tensor memory (torch.cuda's names, for Ag's CPU tensors): the "
     "bytes of all tensor storages alive now (views share their base's), the most alive at "
     "once since the last reset_peak_memory_stats(), and that reset. A tensor no longer "
     "referenced stays alive until the collector runs, so garbage counts until then.",
     "autograd.graph.reset_peak_memory_stats()\n"
     "let start = autograd.graph.memory_allocated()\n"
     "let big = zeros(1000)\n"
     "print(autograd.graph.max_memory_allocated() - start >= 4000)"},
    {"utils.checkpoint", HELP_AUTOGRAD, 0,
     "utils.checkpoint",
     "Activation checkpointing after PyTorch 1.13's torch.utils.checkpoint, written in Ag: "
     "checkpoint and checkpoint_sequential trade compute for memory.",
     "print(type(utils.checkpoint))"},
    {"utils.checkpoint.checkpoint", HELP_AUTOGRAD, 0,
     "utils.checkpoint.checkpoint(function, ...args, use_reentrant=true, preserve_rng_state=true, **kwargs)",
     "function(...args) without keeping what its graph saves for backward: backward runs "
     "function again to get it back, with the random state forward saw (so dropout draws "
     "the same masks), and the gradients are the same to the bit. use_reentrant=true "
     "(PyTorch's default) runs forward under no_grad and backpropagates through the "
     "recomputation with a backward of its own (CheckpointFunctionBackward; some input must "
     "require grad); false packs each saved tensor as a number (saved_tensors_hooks) and "
     "recomputes at the first unpack, and accepts keyword arguments for function.",
     "let w = nn.Linear(4, 4)\n"
     "let x = ones(2, 4, requires_grad=true)\n"
     "let y = utils.checkpoint.checkpoint(fn(t) { return w(t).relu() }, x)\n"
     "y.sum().backward()\n"
     "print(y.grad_fn, x.grad.shape)"},
    {"utils.checkpoint.checkpoint_sequential", HELP_AUTOGRAD, 0,
     "utils.checkpoint.checkpoint_sequential(functions, segments, input, preserve_rng_state=true)",
     "A Sequential (or a list of modules) run in `segments` chunks, each checkpointed "
     "(reentrant) but the last.",
     "let net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))\n"
     "print(utils.checkpoint.checkpoint_sequential(net, 2, ones(1, 2, requires_grad=true)).shape)"},
    {"autograd.detect_anomaly", HELP_AUTOGRAD, 0,
     "autograd.detect_anomaly()",
     "A context in which a NaN produced by backward is an error naming the forward "
     "operation and its script line.",
     "let x = tensor(-1.0, requires_grad=true)\n"
     "try { with autograd.detect_anomaly() { x.sqrt().backward() } } catch e { print(\"caught\") }"},
    {"autograd.no_grad", HELP_AUTOGRAD, 0,
     "autograd.no_grad()",
     "The same as no_grad().",
     "with autograd.no_grad() { print(is_grad_enabled()) }"},
    {"autograd.enable_grad", HELP_AUTOGRAD, 0,
     "autograd.enable_grad()",
     "The same as enable_grad().",
     "with autograd.enable_grad() { print(is_grad_enabled()) }"},
    {"autograd.set_grad_enabled", HELP_AUTOGRAD, 0,
     "autograd.set_grad_enabled(flag)",
     "The same as set_grad_enabled(flag).",
     "with autograd.set_grad_enabled(false) { print(is_grad_enabled()) }"},
    {"Node.name", HELP_AUTOGRAD, 0,
     "node.name()",
     "The node's name, PyTorch's: \"MulBackward0\", \"AccumulateGrad\", ...",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 2).grad_fn.name())"},
    {"Node.next_functions", HELP_AUTOGRAD, 0,
     "node.next_functions",
     "The node's inputs: a list of [node or nil, index] pairs, in operand order.",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 3).grad_fn.next_functions)"},
    {"Node.variable", HELP_AUTOGRAD, 0,
     "node.variable",
     "On an AccumulateGrad node: the leaf tensor it accumulates into.",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 3).grad_fn.next_functions[0][0].variable)"},
    {"Node.line", HELP_AUTOGRAD, 0,
     "node.line",
     "The script line of the forward operation that created the node.",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 3).grad_fn.line)"},
    {"print_graph", HELP_GRAPH, 0,
     "print_graph(t, show_saved=false)",
     "Prints the graph behind a tensor (or a node) as an indented tree: one node a line, "
     "with shapes and the script line of each node (in a notebook the cell and its line, "
     "In[7]:5). The REPL's `:graph EXPR` does the same. show_saved=true ends each node's "
     "line with the tensors it keeps for backward (`saved: self [2] 8 B, ...`; `(packed)` "
     "for what a saved_tensors_hooks pack hook holds) and adds a last line with the "
     "graph's total, each storage counted once (autograd.graph.saved_bytes).",
     "let x = ones(2, requires_grad=true)\n"
     "print_graph((x * 2).sum())\n"
     "print_graph((x * x).sum(), show_saved=true)"},
    {"to_dot", HELP_GRAPH, 0,
     "to_dot(t, show_saved=false)",
     "The graph behind t as Graphviz DOT text (torchviz's layout); show_saved adds the "
     "saved tensors.",
     "let x = ones(2, requires_grad=true)\n"
     "print(to_dot(x * 2).startswith(\"digraph\"))"},
    {"save_graph", HELP_GRAPH, 0,
     "save_graph(t, path, show_saved=false)",
     "Writes the graph to a .dot file, or renders .svg / .png through Graphviz's `dot` (a "
     "clear error when it is not installed). In the web page .svg is drawn by the page's "
     "Graphviz and .png is refused.",
     "let x = ones(2, requires_grad=true)\n"
     "save_graph(x * 2, \"graph.dot\")"},
    {"graph_diff", HELP_GRAPH, 0,
     "graph_diff(a, b)",
     "Prints the graphs of two tensors side by side as a diff (\"- \" only in a, \"+ \" only "
     "in b) and a summary line: how control flow changed the graph.",
     "let x = ones(2, requires_grad=true)\n"
     "graph_diff(x * 2, (x * 2).sin())"},
    {"show_graph", HELP_GRAPH, 0,
     "show_graph(t, show_saved=false)",
     "Shows the graph behind a tensor (or a node) as a picture: in a notebook inline, SVG "
     "and PNG drawn by Graphviz (graphs of more than 2000 nodes are refused: print_graph or "
     "save_graph them), on a terminal the tree of print_graph.",
     "let x = ones(2, requires_grad=true)\n"
     "show_graph((x * 2).sum())"},
    {"display", HELP_GRAPH, 0,
     "display(...vs)",
     "Shows each value: in a notebook as output of the cell (its repr, and a picture for "
     "values that have one, such as plot figures: a class draws one with _repr_svg_() "
     "returning SVG text and _repr_png_() returning PNG bytes), on a terminal its repr on "
     "a line.",
     "display(tensor([1.5, 2.5]), \"text\")"},
    {"plot", HELP_GRAPH, 0,
     "plot",
     "Line plots, scatter plots, histograms and images drawn by gnuplot (needed only when a "
     "figure is drawn). The functions draw on the current figure; plot.show() shows it "
     "(inline in a notebook, on a terminal into an SVG file whose path is printed) and "
     "starts a new one.",
     "plot.line([0.9, 0.5, 0.3], label=\"loss\")\n"
     "plot.xlabel(\"epoch\")\n"
     "plot.clear()"},
    {"nn.functional", HELP_NN, 0,
     "nn.functional (let F = nn.functional)",
     "The functional form of the layers, as torch.nn.functional: F.relu tanh sigmoid gelu "
     "leaky_relu(x, negative_slope=0.01) elu(x, alpha=1) silu softplus(x, beta=1, "
     "threshold=20) hardtanh(x, min_val=-1, max_val=1, inplace=false) softmax log_softmax "
     "dropout linear embedding(input, weight) conv1d conv2d "
     "max_pool1d max_pool2d avg_pool1d avg_pool2d adaptive_avg_pool2d batch_norm layer_norm "
     "group_norm unfold fold pad(x, pad, mode=\"constant\", value=0) (modes also \"reflect\", "
     "\"replicate\", \"circular\": 1 to 3 last dims, as PyTorch's) one_hot(t, "
     "num_classes=-1) mse_loss l1_loss cross_entropy nll_loss binary_cross_entropy "
     "binary_cross_entropy_with_logits kl_div smooth_l1_loss huber_loss "
     "multi_head_attention_forward (PyTorch's arguments; what nn.MultiheadAttention runs). "
     "F.pad's amounts go from the last dim backwards ([left, right, top, bottom]); negative "
     "ones crop (ConstantPadNdBackward0; ReflectionPad2DBackward0, ReplicationPad1DBackward0, "
     "...; circular's is CopySlices, as in PyTorch 1.13).",
     "let F = nn.functional\n"
     "print(F.pad(ones(1, 2), [1, 1]), F.one_hot(tensor([2, 0], dtype=int64)))"},
    {"optim.lr_scheduler", HELP_OPTIM, 0,
     "optim.lr_scheduler.StepLR(opt, step_size, gamma=0.1) / MultiStepLR ExponentialLR CosineAnnealingLR LambdaLR LinearLR OneCycleLR ReduceLROnPlateau",
     "Learning rate schedules (PyTorch 1.13's formulas): each sets the \"lr\" of the "
     "optimizer's param_groups. Call step() after optimizer.step() (once per epoch; "
     "per batch for OneCycleLR); get_last_lr() gives the rates, one per group. "
     "ReduceLROnPlateau's step(metric) cuts the rate by factor after patience epochs "
     "without improvement. A scheduler stepped before its optimizer warns as PyTorch "
     "does.",
     "let w = tensor([1.0], requires_grad=true)\n"
     "let opt = optim.SGD([w], lr=0.1)\n"
     "let sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)\n"
     "for epoch in range(4) {\n"
     "  opt.step()\n"
     "  sched.step()\n"
     "  print(sched.get_last_lr())\n"
     "}"},
    {"nn.utils", HELP_NN, 0,
     "nn.utils.clip_grad_norm_(params, max_norm, norm_type=2.0, error_if_nonfinite=false) / clip_grad_value_(params, clip_value) / parameters_to_vector(params) / vector_to_parameters(vec, params)",
     "clip_grad_norm_ scales the gradients in place so that their joint norm is at "
     "most max_norm and returns the norm before clipping (norm_type may be "
     "float(\"inf\")); clip_grad_value_ clamps each gradient to [-clip_value, "
     "clip_value]; parameters_to_vector joins the parameters into one vector, "
     "vector_to_parameters copies one back.",
     "let w = tensor([3.0, -4.0], requires_grad=true)\n"
     "(w * w).sum().backward()\n"
     "print(nn.utils.clip_grad_norm_([w], 1.0), w.grad)\n"
     "print(nn.utils.parameters_to_vector([w, w]))"},
    {"utils.data", HELP_DATA, 0,
     "utils.data",
     "Datasets and mini-batches, written in Ag after PyTorch 1.13's torch.utils.data "
     "(read it with source(utils.data.DataLoader)): Dataset, TensorDataset, Subset, "
     "DataLoader, SequentialSampler, RandomSampler, SubsetRandomSampler, BatchSampler, "
     "random_split, default_collate. Shuffles and splits draw from the "
     "random streams as PyTorch does, so with the same manual_seed the batches are "
     "PyTorch's.",
     "print(type(utils.data))"},
    {"let", HELP_KEYWORDS, 0,
     "let NAME = EXPR / let [a, b] = LIST",
     "Declares a variable: a block-scoped local, or a global at top level. A list may be "
     "destructured.",
     "let x = 1\n"
     "let [a, b] = [2, 3]\n"
     "print(x + a + b)"},
    {"fn", HELP_KEYWORDS, 0,
     "fn NAME(a, b=1, ...rest) { } / fn(x) { }",
     "Defines a function (with defaults and a rest parameter) or, without a name, a "
     "function expression; closures capture variables.",
     "fn add(a, b=1) { return a + b }\n"
     "let sq = fn(x) { return x * x }\n"
     "print(add(1), add(1, b=5), sq(3))"},
    {"return", HELP_KEYWORDS, 0,
     "return EXPR",
     "Leaves the function with a value (nil without one).",
     "fn sign(x) { if x < 0 { return -1 }; return 1 }\n"
     "print(sign(-5))"},
    {"if", HELP_KEYWORDS, 0,
     "if COND { } elif COND { } else { }",
     "Runs the first block whose condition is truthy (nil, false, 0, \"\", [], {} are "
     "falsy).",
     "let n = 5\n"
     "if n > 3 { print(\"big\") } elif n > 1 { print(\"mid\") } else { print(\"small\") }"},
    {"elif", HELP_KEYWORDS, 0,
     "elif COND { }",
     "Another condition of an if; may start the line after a `}`.",
     "if false { print(1) } elif true { print(2) }"},
    {"else", HELP_KEYWORDS, 0,
     "else { }",
     "The block of an if that runs when no condition held.",
     "if false { print(1) } else { print(2) }"},
    {"while", HELP_KEYWORDS, 0,
     "while COND { }",
     "Repeats the block while the condition is truthy (Ctrl-C stops a runaway loop).",
     "let i = 0\n"
     "while i < 3 { i += 1 }\n"
     "print(i)"},
    {"for", HELP_KEYWORDS, 0,
     "for x in ITERABLE { } / for i, x in enumerate(xs) { }",
     "Loops over a list, map (keys), string, range or tensor (along dim 0); two names "
     "destructure pairs. Each iteration binds a fresh variable.",
     "for k, v in {\"a\": 1}.items() { print(k, v) }\n"
     "for row in ones(2, 3) { print(row.shape) }"},
    {"in", HELP_KEYWORDS, 0,
     "for x in xs / x in xs",
     "Separates a for loop's variables from what it loops over; as an operator, tests "
     "membership in a list, map (keys) or string.",
     "print(2 in [1, 2], \"a\" in {\"a\": 1}, \"ell\" in \"hello\")"},
    {"is", HELP_KEYWORDS, 0,
     "a is b / a is not b",
     "Identity: true when a and b are the same object (never calls eq). Lists, maps, "
     "instances, functions and tensors are themselves only (t.grad is t.grad; t.detach() is "
     "not t); nil, bools, numbers, strings and dtypes are compared by value and type (1 is 1, "
     "1 is not 1.0, t.dtype is float32). A comparison: it chains as Python's.",
     "let xs = [1]\nprint(xs is xs, xs is [1], xs is not nil, nil is nil)"},
    {"break", HELP_KEYWORDS, 0,
     "break",
     "Leaves the innermost loop.",
     "for i in range(10) { if i == 2 { break }; print(i) }"},
    {"continue", HELP_KEYWORDS, 0,
     "continue",
     "Goes on with the next iteration of the innermost loop.",
     "for i in range(3) { if i == 1 { continue }; print(i) }"},
    {"and", HELP_KEYWORDS, 0,
     "a and b",
     "b if a is truthy, else a (short-circuit, returns an operand as Python's).",
     "print(1 and 2, nil and 2)"},
    {"or", HELP_KEYWORDS, 0,
     "a or b",
     "a if a is truthy, else b (short-circuit).",
     "print(nil or \"default\")"},
    {"not", HELP_KEYWORDS, 0,
     "not a",
     "true when a is falsy.",
     "print(not [], not 1)"},
    {"//", HELP_KEYWORDS, 0,
     "a // b   a //= b",
     "Floor division: of ints an int, rounded toward minus infinity with the sign of the "
     "divisor (-7 // 2 == -4); a number by 0 is ZeroDivisionError. On tensors PyTorch's "
     "floor_divide (//= in place, floor_divide_).",
     "print(-7 // 2, 7.5 // 2, tensor([7, -7]) // 2)"},
    {"|", HELP_KEYWORDS, 0,
     "a | b   a |= b",
     "Set union, or of booleans and of bool tensors (masks), bitwise or of ints; an "
     "instance's or()/ror()/ior(). |= changes a set or a bool tensor in place.",
     "print({1, 2} | {3}, true | false, 6 | 1)"},
    {"&", HELP_KEYWORDS, 0,
     "a & b   a &= b",
     "Set intersection, and of booleans and of bool tensors, bitwise and of ints; an "
     "instance's and()/rand()/iand().",
     "let x = tensor([-1.0, 0.5, 2.0])\n"
     "print({1, 2} & {2, 3}, 6 & 3, x[(x > 0) & (x < 1)])"},
    {"^", HELP_KEYWORDS, 0,
     "a ^ b   a ^= b",
     "Symmetric difference of sets, xor of booleans and of bool tensors, bitwise xor of "
     "ints; an instance's xor()/rxor()/ixor(). Binds between | and &, as in Python.",
     "print({1, 2, 3} ^ {2, 3, 4}, true ^ true, 5 ^ 3)"},
    {"~", HELP_KEYWORDS, 0,
     "~a",
     "Bitwise not of an int (~x == -x - 1, ~true == -2), logical not of a bool tensor, "
     "bitwise not of an int64 tensor; an instance's invert().",
     "print(~5, ~tensor([true, false]))"},
    {"true", HELP_KEYWORDS, 0,
     "true",
     "The boolean true; 1 in arithmetic, to == and as a map key (true == 1, as Python's).",
     "print(true and 1 == 1)"},
    {"false", HELP_KEYWORDS, 0,
     "false",
     "The boolean false.",
     "print(false or 0)"},
    {"nil", HELP_KEYWORDS, 0,
     "nil",
     "The absence of a value; falsy. The REPL does not show a nil result.",
     "print(nil == nil, {}.get(\"k\"))"},
    {"class", HELP_KEYWORDS, 0,
     "class NAME : PARENT { fn init(...) { } fn method() { } }",
     "Defines a class with single inheritance (the parent is any expression). init is the "
     "constructor; call makes instances callable; str sets how they print.",
     "class Point {\n"
     "  fn init(x, y) { self.x = x; self.y = y }\n"
     "  fn str() { return f\"({self.x}, {self.y})\" }\n"
     "}\n"
     "print(Point(1, 2))"},
    {"self", HELP_KEYWORDS, 0,
     "self",
     "The receiving instance inside a method.",
     "class C { fn init() { self.v = 3 } fn get() { return self.v } }\n"
     "print(C().get())"},
    {"super", HELP_KEYWORDS, 0,
     "super.METHOD(...)",
     "Calls the parent class's version of a method.",
     "class A { fn hi() { return \"A\" } }\n"
     "class B : A { fn hi() { return \"B\" + super.hi() } }\n"
     "print(B().hi())"},
    {"try", HELP_KEYWORDS, 0,
     "try { } catch CLASS as e { } catch e { }",
     "Runs the block; a thrown value or runtime error goes to the first catch clause that "
     "matches it: catch ValueError { }, catch ValueError as e { }, catch (KeyError, "
     "IndexError) as e { } match an instance of the class or a subclass; catch e { } "
     "catches everything. When none matches, the error is thrown on.",
     "try { [1][9] } catch e { print(e.message) }"},
    {"catch", HELP_KEYWORDS, 0,
     "catch CLASS [as NAME] { } / catch (A, B) [as NAME] { } / catch NAME { }",
     "A handler of a try; several may follow, tried in order, each may start the line "
     "after a `}`. A capitalised or dotted name is a class; a lower-case name alone "
     "binds whatever was thrown.",
     "try { [1][5] } catch KeyError { print(\"key\") } catch IndexError as e { print(e) }"},
    {"throw", HELP_KEYWORDS, 0,
     "throw VALUE",
     "Throws any value (caught by try/catch; uncaught, it ends the script with a "
     "traceback).",
     "try { throw {\"code\": 3} } catch e { print(e[\"code\"]) }"},
    {"with", HELP_KEYWORDS, 0,
     "with EXPR { } / with EXPR as NAME { }",
     "Calls EXPR's enter() before the block and exit() on every way out (normal end, "
     "break, return, error).",
     "with no_grad() { print(is_grad_enabled()) }"},
    {"import", HELP_KEYWORDS, 0,
     "import \"path/file.ag\" as NAME / import torch.nn as nn / from torch import nn, optim",
     "Runs a file once (path relative to the importing file) and binds its globals as a "
     "module. Python's spellings name Ag's built-in modules: `import torch` (binds torch), "
     "`import torch.nn.functional as F`, `import math, random`, `from collections import "
     "Counter, deque as dq`; a module Ag lacks (numpy ...) is an error saying what Ag "
     "offers instead.",
     "# given lib/util.ag defining fn double(x):\n"
     "import \"lib/util.ag\" as util\n"
     "print(util.double(2))"},
    {"as", HELP_KEYWORDS, 0,
     "import \"f.ag\" as NAME / with EXPR as NAME",
     "Names the module of an import or the value of a with.",
     "# given lib/util.ag:\n"
     "import \"lib/util.ag\" as util"},
    {"yield", HELP_KEYWORDS, 0,
     "yield VALUE   let x = yield VALUE",
     "Inside a fn, makes it a generator function: a call returns a generator without "
     "running the body; next(g) or a for loop runs it to the next yield. The yield's own "
     "value is what g.send(v) sent (nil for next). At the end, StopIteration.",
     "fn count(n) { let i = 0\n  while i < n { yield i; i += 1 } }\n"
     "print(list(count(3)), sum(x * x for x in count(4)))"},
    {"lambda", HELP_KEYWORDS, 0,
     "lambda PARAMS: EXPR",
     "A function of one expression, as Python's (same as fn(PARAMS) { return EXPR }); "
     "parameters may have defaults.",
     "print(sorted([[1, \"b\"], [2, \"a\"]], key=lambda p: p[1]), (lambda x, y=2: x * y)(3))"},
    {":help", HELP_REPL, 0,
     ":help [NAME]",
     "Lists the help topics, or explains NAME (a built-in, method, keyword, "
     "nn/optim/autograd member; `:help backward` finds Tensor.backward).",
     ":help relu"},
    {":graph", HELP_REPL, 0,
     ":graph EXPR",
     "Prints the autograd graph behind the tensor (or node) EXPR as a tree, like "
     "print_graph.",
     ":graph loss"},
    {":load", HELP_REPL, 0,
     ":load FILE",
     "Runs a file in the session: its globals, functions and classes stay defined.",
     ":load examples/demo.ag"},
    {":quit", HELP_REPL, 0,
     ":quit",
     "Leaves the REPL (Ctrl-D too); the history is saved to ~/.ag_history (or "
     "$AG_HISTORY).",
     ":quit"},
};

const size_t help_table_count = sizeof help_table / sizeof help_table[0];

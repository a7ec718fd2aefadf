/* help_table.c — the help of what is neither a built-in written in C nor a
 * name the library defines in Ag (see help.h): the keywords, the REPL's
 * commands, and the topics that are no single native: the modules, the
 * error classes and the other classes and values the VM itself defines.
 *
 * A C native's entry is written beside its code (HELP(...), stdlib/help.h;
 * collected by help_natives.c), a name defined in Ag has a `##` doc comment
 * (help_doc.c). Each entry: name, section, flags, signature, a paragraph, an
 * example; the REPL tests run every example.
 */
#include "repl/help.h"

const HelpEntry help_table[] = {
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
    {"func", HELP_AUTOGRAD, 0,
     "func",
     "functorch 1.13's function transforms (torch.func in PyTorch 2; also named functorch, "
     "and torch.func): grad, grad_and_value, vjp, jacrev, hessian, vmap, functional_call. "
     "A transform takes a function and returns a function; they compose "
     "(func.grad(func.grad(f)), func.vmap(func.grad(f))) and their results carry no graph. "
     "jacfwd and jvp (forward mode) are not there yet.",
     "print(func.grad(fn(x) { return (x ** 2).sum() })(tensor([1.0, 2.0])))"},
    {"autograd.functional", HELP_AUTOGRAD, 0,
     "autograd.functional",
     "PyTorch 1.13's torch.autograd.functional, written in Ag (source(autograd.functional.vjp)): "
     "vjp, jvp, vhp, hvp, jacobian and hessian of a function of a tensor or of a tuple of "
     "tensors, with create_graph (results with history, to differentiate again) and strict "
     "(an error, PyTorch's, when an output does not depend on an input, instead of zeros). "
     "jvp and hvp use the double-backward trick, so they need reverse mode only.",
     "print(autograd.functional.jacobian(fn(x) { return x ** 2 }, tensor([1.0, 2.0])))"},
    {"autograd.graph", HELP_AUTOGRAD, 0,
     "autograd.graph",
     "PyTorch's torch.autograd.graph: saved_tensors_hooks and save_on_cpu; and the "
     "graph's memory made visible: saved_bytes(t), saved_tensor_count(t), "
     "memory_allocated(), max_memory_allocated(), reset_peak_memory_stats().",
     "print(type(autograd.graph))"},
    {"utils.checkpoint", HELP_AUTOGRAD, 0,
     "utils.checkpoint",
     "Activation checkpointing after PyTorch 1.13's torch.utils.checkpoint, written in Ag: "
     "checkpoint and checkpoint_sequential trade compute for memory.",
     "print(type(utils.checkpoint))"},
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
     "leaky_relu elu silu softplus hardtanh softmax log_softmax "
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

/* protocol.h — the operator methods (SPEC §4): the names a class defines to
 * make its instances work with operators, len(), bool(), indexing, `in`,
 * `for` and as map keys. Named as Python's without the underscores. */
#ifndef AG_VM_PROTOCOL_H
#define AG_VM_PROTOCOL_H

#define VM_METHOD_NAMES(X)                                                                         \
  X(ADD, "add") X(SUB, "sub") X(MUL, "mul") X(DIV, "div") X(MOD, "mod") X(POW, "pow")              \
  X(MATMUL, "matmul") X(FLOORDIV, "floordiv")                                                     \
  X(RADD, "radd") X(RSUB, "rsub") X(RMUL, "rmul") X(RDIV, "rdiv") X(RMOD, "rmod")                  \
  X(RPOW, "rpow") X(RMATMUL, "rmatmul") X(RFLOORDIV, "rfloordiv")                                 \
  X(IADD, "iadd") X(ISUB, "isub") X(IMUL, "imul") X(IDIV, "idiv") X(IMOD, "imod")                  \
  X(IPOW, "ipow") X(IMATMUL, "imatmul") X(IFLOORDIV, "ifloordiv")                                 \
  X(EQ, "eq") X(NE, "ne") X(LT, "lt") X(LE, "le") X(GT, "gt") X(GE, "ge")                          \
  X(NEG, "neg") X(POS, "pos") X(ABS, "abs") X(HASH, "hash") X(BOOL, "bool") X(LEN, "len")          \
  X(GETITEM, "getitem") X(SETITEM, "setitem") X(CONTAINS, "contains") X(ITER, "iter")              \
  X(NEXT, "next") X(OR, "or") X(AND, "and") X(XOR, "xor") X(ROR, "ror") X(RAND, "rand")          \
  X(RXOR, "rxor") X(IOR, "ior") X(IAND, "iand") X(IXOR, "ixor") X(INVERT, "invert")

typedef enum {
#define VM_METHOD_ENUM(e, name) VM_M_##e,
  VM_METHOD_NAMES(VM_METHOD_ENUM)
#undef VM_METHOD_ENUM
      VM_METHOD_COUNT
} VmMethod;

#endif

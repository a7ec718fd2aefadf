"""gen_hostile_pt.py DIR -- writes the hostile .pt files of
tests/check_npz_hostile.sh into DIR (small, generated with Python's zipfile
and hand-written pickles: no PyTorch needed). Each must be refused with a
clear error naming the file, nothing in it executed."""
import struct
import sys
import zipfile

PROTO = b"\x80\x02"


def rebuild(key, numel, offset, size, stride, storage=b"FloatStorage"):
    """A pickle fragment of torch._utils._rebuild_tensor_v2 as torch.save writes it."""
    def tup(xs):
        return b"(" + b"".join(b"J" + struct.pack("<i", x) for x in xs) + b"t"
    pid = (b"(X\x07\x00\x00\x00storagectorch\n" + storage + b"\nX" + struct.pack("<I", len(key)) +
           key + b"X\x03\x00\x00\x00cpuJ" + struct.pack("<i", numel) + b"tQ")
    return (b"ctorch._utils\n_rebuild_tensor_v2\n(" + pid + b"J" + struct.pack("<i", offset) +
            tup(size) + tup(stride) + b"\x89ccollections\nOrderedDict\n)Rt" + b"R")


def write(path, pickle, members=None, version=b"3\n"):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pickle)
        for name, data in (members or {}).items():
            z.writestr("archive/" + name, data)
        if version is not None:
            z.writestr("archive/version", version)


def main():
    out = sys.argv[1] + "/"
    floats = struct.pack("<4f", 1, 2, 3, 4)
    # a global that would run a command, were it called
    write(out + "evil_global.pt", PROTO + b"cos\nsystem\nX\x02\x00\x00\x00ls\x85R.")
    # INST: an opcode torch.save never writes (it calls what it names)
    write(out + "evil_opcode.pt", PROTO + b"(ios\nsystem\n.")
    # a storage of 4 floats that claims 8
    write(out + "short_storage.pt", PROTO + rebuild(b"0", 8, 0, [8], [1]) + b".", {"data/0": floats})
    # a view reaching past its storage's end
    write(out + "outside.pt", PROTO + rebuild(b"0", 4, 2, [2, 2], [2, 1]) + b".", {"data/0": floats})
    # a storage member that is not there
    write(out + "missing.pt", PROTO + rebuild(b"7", 4, 0, [4], [1]) + b".", {"data/0": floats})
    # a memo entry never defined
    write(out + "memo.pt", PROTO + b"h\x05.")
    # a storage type Ag does not have
    write(out + "complex.pt", PROTO + rebuild(b"0", 4, 0, [4], [1], b"ComplexFloatStorage") + b".",
          {"data/0": floats})
    # no version record
    write(out + "noversion.pt", PROTO + b"N.", version=None)
    # 10000 lists nested in each other
    write(out + "deep.pt", PROTO + b"]" * 10000 + b"a" * 9999 + b".")
    # a valid file cut in half
    write(out + "whole.pt", PROTO + rebuild(b"0", 4, 0, [4], [1]) + b".", {"data/0": floats})
    data = open(out + "whole.pt", "rb").read()
    open(out + "truncated.pt", "wb").write(data[: len(data) // 2])
    # a central directory that claims a bigger data.pkl than the file holds
    i = data.rfind(b"PK\x01\x02")
    first = data.find(b"PK\x01\x02")
    lying = bytearray(data)
    struct.pack_into("<II", lying, first + 20, 1 << 30, 1 << 30)
    open(out + "lying.pt", "wb").write(bytes(lying))
    assert i >= first
    # whole modules: a class the loading script does not define, a module
    # class called (REDUCE) or given arguments, a class of another module
    write(out + "undefined_class.pt", PROTO + b"c__main__\nEvil\n)\x81}b.")
    write(out + "not_a_class.pt", PROTO + b"c__main__\nprint\n)\x81}b.")
    write(out + "not_nn.pt", PROTO + b"ctorch.nn\nsave\n)\x81}b.")
    write(out + "called_class.pt", PROTO + b"ctorch.nn\nLinear\nK\x03K\x04\x86R.")
    write(out + "newobj_args.pt", PROTO + b"ctorch.nn\nLinear\nK\x03\x85\x81.")
    write(out + "other_module.pt", PROTO + b"ctorch.nn.modules.os\nsystem.x\n)\x81.")
    write(out + "module_state.pt", PROTO + b"ctorch.nn\nReLU\n)\x81]b.")
    # a list as a dict key
    write(out + "list_key.pt", PROTO + b"}]]s.")
    # torch.save's format before 1.6: a bare pickle, starting with a magic number
    open(out + "legacy.pt", "wb").write(PROTO + b"\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.")


main()

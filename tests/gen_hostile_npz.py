"""gen_hostile_npz.py DIR -- writes the hostile .npz archives of
tests/check_npz_hostile.sh into DIR (generated, never committed: one of them
inflates to 3 GiB).

  shared.npz  2000 directory entries that all point at one deflated member of
              1 MiB (2 GiB in all): each member may be read only once
  huge.npz    issue 16's reproducer: 2000 entries pointing at one deflated
              member of 64 MiB, 125 GiB in all: beyond load()'s 4 GiB
  slow.npz    one valid-looking deflated member of 3 GiB of zeros (under the
              limit; its CRC is left wrong), for interrupting inflate
"""
import struct
import sys
import zlib

MIB = 1 << 20


def npy_header(nbytes):
    """A .npy v1.0 header for a uint8 array of nbytes elements."""
    d = "{'descr': '|u1', 'fortran_order': False, 'shape': (%d,), }" % nbytes
    pad = 64 - (10 + len(d) + 1) % 64
    d = d + " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode()


def deflated_zeros(nbytes):
    """A raw DEFLATE stream of a .npy header and nbytes zeros (a multiple of
    16 MiB or less), built from one compressed 16 MiB piece: after a full
    flush the compressor starts afresh, so every piece is the same."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = npy_header(nbytes)
    out = [c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)]
    step = min(nbytes, 16 * MIB)
    piece = c.compress(bytes(step)) + c.flush(zlib.Z_FULL_FLUSH)
    out.append(piece * (nbytes // step))
    out.append(c.flush())
    return b"".join(out), len(head) + nbytes


def write_zip(path, data, size, crc, names):
    """One local member holding data; a central directory entry per name, every
    one pointing at that member."""
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(data), size,
                        len(names[0]), 0) + names[0].encode()
    central = b""
    for name in names:
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc,
                               len(data), size, len(name), 0, 0, 0, 0, 0, 0) + name.encode()
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(names), len(names), len(central),
                      len(local) + len(data), 0)
    with open(path, "wb") as f:
        f.write(local + data + central + end)


def main():
    out = sys.argv[1]
    names = ["a%d.npy" % i for i in range(2000)]
    data, size = deflated_zeros(1 * MIB)
    write_zip(out + "/shared.npz", data, size, zlib.crc32(zlib.decompress(data, -15)), names)
    data, size = deflated_zeros(64 * MIB)
    write_zip(out + "/huge.npz", data, size, 0, names)
    data, size = deflated_zeros(3 * 1024 * MIB)
    write_zip(out + "/slow.npz", data, size, 0, names[:1])


main()

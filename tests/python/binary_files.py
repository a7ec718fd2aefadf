# open(path, "wb" / "rb" / "ab"): a file's bytes written and read back
# unchanged (NULs, 0xff, CR LF), appended, measured, compared and sliced.
# Ag's bytes are strings: the twin prints what both agree on (lengths,
# equality, byte values by ord, decoded text); bytes(ints), bytes(n),
# encode() and decode().
data = bytes([80, 75, 3, 4, 0, 255, 13, 10]) + "end".encode()
with open("/tmp/ag_py_binary.bin", "wb") as f:
    print(f.write(data))
with open("/tmp/ag_py_binary.bin", "ab") as f:
    f.write(bytes(1) + b"tail")
with open("/tmp/ag_py_binary.bin", "rb") as f:
    back = f.read()
print(len(back), str(back == data + bytes([0]) + b"tail").lower(), str(back[:2] == b"PK").lower())
print([back[i] for i in range(len(back))], ord(bytes([200])))
print(back[-4:].decode(), back[8:11].decode("utf-8"))
with open("/tmp/ag_py_binary.bin", "rb") as f:
    print(f.mode, len(f.read()), len(f.read()))

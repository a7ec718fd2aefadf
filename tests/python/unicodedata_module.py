# needs: utf8proc
# Python's unicodedata as lessons use it (twin unicodedata_module.ag): NFD then dropping
# the combining marks ("Mn") turns names into ASCII; the four normalization forms; the
# category, combining class and mirrored flag of characters; Python's errors.
import unicodedata


def ascii_of(s):
    return "".join(c for c in unicodedata.normalize("NFD", s) if unicodedata.category(c) != "Mn")


for name in ["Ślusàrski", "Wiśniewski", "Nguyễn", "Müller", "Ａｇ", "ﬁne", "Åström"]:
    print(name, ascii_of(name), len(list(unicodedata.normalize("NFD", name))),
          len(list(unicodedata.normalize("NFC", unicodedata.normalize("NFD", name)))),
          unicodedata.normalize("NFKC", name), len(list(unicodedata.normalize("NFKD", name))))
print("[" + ", ".join('"%s"' % unicodedata.category(c) for c in "aA1 ,\u0301\u00e9\u4e2d$+\n\u2028\u00bd") + "]")
print([unicodedata.combining(c) for c in "a\u0301\u0327\u05b0"], [unicodedata.mirrored(c) for c in "(a<"])
print(str(unicodedata.is_normalized("NFC", "\u00e9")).lower(), str(unicodedata.is_normalized("NFD", "\u00e9")).lower())
for f in [lambda: unicodedata.normalize("NFX", "a"), lambda: unicodedata.category("ab"),
          lambda: unicodedata.category(""), lambda: unicodedata.category(1)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)

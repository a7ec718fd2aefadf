# Python's assert statement: `assert COND` and `assert COND, MESSAGE`; the
# message is evaluated only when the condition is false; AssertionError is
# caught by its class and carries the message (none without one).
def show(c):
    return "true" if c else "false"


xs = [1, 2]
assert len(xs) == 2
assert xs is xs, "the same list"
calls = []
def message():
    calls.append(1)
    return "never"
assert True, message()
print("message calls:", len(calls))
try:
    assert 1 > 2, f"bad {xs}"
except AssertionError as e:
    print("caught:", e)
try:
    assert not xs
except AssertionError as e:
    print("caught without a message:", repr(e), show(str(e) == ""))
def check(v):
    assert v > 0, "v must be positive"
    return v
print(check(3))
try:
    check(-1)
except AssertionError as e:
    print("from a function:", e)

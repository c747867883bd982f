import json, re
tot = sup = 0
for line in open("cases.jsonl", encoding="utf-8"):
    d = json.loads(line); out = d["output"]; ns = d["numbers"]
    assert 10 <= len(ns) <= 16, (d["id"], len(ns))
    nl = d["source"].count("\n") + 1
    assert 20 <= nl <= 40, (d["id"], nl)
    covered = set(); cur = 0; pos_prev = -1
    for n in ns:
        assert n["text"] in n["context"] and n["context"] in out, n
        assert 8 <= len(n["context"]) <= 20, n
        p = out.find(n["context"], 0)
        assert out.count(n["context"]) == 1, ("ctx not unique", n)
        tp = p + n["context"].find(n["text"])
        assert tp > pos_prev, ("order", n); pos_prev = tp
        covered.update(range(tp, tp + len(n["text"])))
    for m in re.finditer(r"[0-9０-９]+|[〇一二三四五六七八九十百千]+", out):
        if not set(range(m.start(), m.end())) <= covered:
            print("UNLABELLED", d["id"], m.group(), out[max(0,m.start()-5):m.end()+5])
    s = sum(n["supported"] for n in ns)
    print(d["id"], len(ns), s, f"{s/len(ns):.0%}", "src lines", nl)
    tot += len(ns); sup += s
print("total", tot, sup, f"{sup/tot:.1%}")
assert 0.55 <= sup/tot <= 0.65

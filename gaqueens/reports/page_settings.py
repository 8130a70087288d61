"""The settings of an output folder's entries, as its page shows them (gaqueens.reports.page):
read from the manifest's resolved experiment (settings.algorithms: each entry's settings as an
experiment file writes them, every default filled in), or from one GA's settings for a single
run's page.

A GA entry other than the reference (the entry named ga, else the first GA entry) is spelt out
by what it changes: "as ga, but engine: deap, variation: or; select does not apply". A key
whose values are both mappings of the same keys is compared key by key ("stop.generations:
5000"; but "select: {tournament: 2}" beside {deap: selTournament, tournsize: 3}). The
player shows the chosen run's entry beside it, each setting it changes marked.
"""

from __future__ import annotations

from gaqueens.reports.page_tables import e


def flow(value) -> str:
    """A setting's value as an experiment file would write it inline: {swap: 1}, [8, 16]."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(item) for item in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def is_ga(settings) -> bool:
    """Whether an entry's written settings are a GA's (they name an engine)."""
    return isinstance(settings, dict) and "engine" in settings


def reference(algorithms: dict) -> str | None:
    """The GA entry the others are told apart from: ga, else the first GA entry."""
    gas = [name for name, settings in algorithms.items() if is_ga(settings)]
    return "ga" if "ga" in gas else (gas[0] if gas else None)


def changes(settings: dict, base: dict, prefix: str = "") -> list[tuple[str, str | None]]:
    """What ``settings`` changes from ``base``: (key, its value, or None where the key does not
    apply to it), in ``base``'s order, then the keys ``base`` lacks."""
    out = []
    for key in [*base, *(k for k in settings if k not in base)]:
        name = prefix + str(key)
        if key not in settings:
            out.append((name, None))
        elif key not in base:
            out.append((name, flow(settings[key])))
        elif (isinstance(settings[key], dict) and isinstance(base[key], dict)
              and settings[key].keys() == base[key].keys()):
            out += changes(settings[key], base[key], f"{name}.")
        elif settings[key] != base[key]:
            out.append((name, flow(settings[key])))
    return out


def difference_text(name: str, settings: dict, base_name: str, base: dict) -> str:
    """A variant told apart from the reference: "as ga, but engine: deap; select does not
    apply"."""
    changed = changes(settings, base)
    if not changed:
        return f"the same settings as {base_name}"
    given = ", ".join(f"{key}: {value}" for key, value in changed if value is not None)
    dropped = [key for key, value in changed if value is None]
    text = f"as {base_name}, but {given}" if given else f"as {base_name}"
    if dropped:
        text += (("; " if given else ", but ") + ", ".join(dropped)
                 + (" does" if len(dropped) == 1 else " do") + " not apply")
    return text


def described(algorithms: dict) -> dict[str, dict]:
    """Per entry: its kind (GA or solver), its settings as [key, value, changed from the
    reference] rows, and the text telling a variant apart (empty for the reference and the
    solvers), for the page and its player."""
    base_name = reference(algorithms)
    base = algorithms.get(base_name) or {}
    out = {}
    for name, settings in algorithms.items():
        settings = settings if isinstance(settings, dict) else {}
        changed = {key.split(".")[0] for key, _ in changes(settings, base)} \
            if is_ga(settings) and name != base_name else set()
        out[name] = {
            "kind": "GA" if is_ga(settings) else "solver",
            "rows": [[key, flow(value), key in changed] for key, value in settings.items()],
            "differs": (difference_text(name, settings, base_name, base)
                        if is_ga(settings) and name != base_name else ""),
        }
    return out


def section(algorithms: dict, names) -> str:
    """The page's Settings section: a row per entry among ``names`` (the summary's order), its
    settings, or a variant's changes from the reference."""
    if not algorithms:
        return ""
    said = described(algorithms)
    rows = []
    for name in names:
        if name not in said:
            continue
        entry = said[name]
        text = entry["differs"] or (", ".join(f"{k}: {v}" for k, v, _ in entry["rows"])
                                    or "no settings")
        rows.append(f'<tr data-entry="{e(name)}"><td class="text">{e(name)}</td>'
                    f'<td class="text">{e(entry["kind"])}</td>'
                    f'<td class="text wrap">{e(text)}</td></tr>')
    return ("<section id=\"settings\"><h2>Settings</h2>"
            "<p class=\"lead\">Each entry's settings as the experiment resolved them (manifest."
            "json); a variant is told by what it changes.</p>"
            "<div class=\"scroll\"><table id=\"settings-table\"><thead><tr>"
            "<th class=\"text\" scope=\"col\">entry</th><th class=\"text\" scope=\"col\">kind"
            "</th><th class=\"text\" scope=\"col\">settings</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")

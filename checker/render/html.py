"""The HTML report: one self-contained page (inline CSS, one small script, inline SVG charts).

Rendered with jinja2 from ``checker/render/templates/`` (autoescape on, data embedded with ``tojson``);
jinja2 is imported only here, so the check path never pays for it. A Content-Security-Policy
allows exactly the page's own script and style (by hash) and no request of any kind, so even an
escaping bug could not run an injected script or fetch anything.
"""
from __future__ import annotations

import base64
import hashlib
import os

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
_ENV = None
_ASSETS: dict[str, str] = {}


def environment():
    """The shared jinja2 Environment (built once): autoescape everywhere, strict undefined."""
    global _ENV
    if _ENV is None:
        import jinja2
        from markupsafe import Markup

        _ENV = jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        # only for strings built by checker.render.svg, which escapes every text it embeds
        _ENV.filters["trusted_svg"] = Markup
        _ENV.filters["breakable"] = breakable
    return _ENV


def breakable(value):
    """The text escaped, with a line-break opportunity after each underscore (``high_concurrency`` may wrap in a
    narrow column; a copied value holds no extra character)."""
    from markupsafe import Markup, escape

    return Markup(str(escape(value)).replace("_", "_<wbr>"))


def asset(name: str) -> str:
    if name not in _ASSETS:
        with open(os.path.join(TEMPLATES, name), encoding="utf-8") as fh:
            _ASSETS[name] = fh.read().strip()
    return _ASSETS[name]


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page_assets() -> dict:
    """CSS, script and the CSP that allows exactly those two (by hash) and nothing external."""
    from markupsafe import Markup

    css, js = asset("report.css"), asset("report.js")
    csp = (f"default-src 'none'; script-src {_sha256(js)}; style-src {_sha256(css)}; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    return {"css": Markup(css), "js": Markup(js), "csp": csp}


def render(report, back_link: str | None = None, **_options) -> str:
    """One submission report (or several submissions on one page) as an HTML document."""
    from checker.render.view import build_view

    view = build_view(report, back_link=back_link)
    return environment().get_template("report.html.j2").render(v=view, **page_assets())

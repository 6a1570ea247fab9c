"""A package whose names are imported when first asked for (PEP 562: a module's
``__getattr__``): each game's package exports its engine, records and report this way, so
that the registry and the start menu take a game's words without loading its engine.

>>> import sys, types
>>> package = types.ModuleType("example")
>>> package.__getattr__ = lazy_exports("example", {"json": ("dumps",)}, vars(package))
>>> package.dumps([1])
'[1]'
>>> "dumps" in vars(package)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, MutableMapping


def lazy_exports(package: str, origins: Mapping[str, Iterable[str]],
                 namespace: MutableMapping[str, object]) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: ``origins`` maps each module to the names it
    gives (a submodule of ``package`` named as the name is that module itself); a name
    found is kept in ``namespace`` (the package's globals), so it is imported once."""
    where = {name: module for module, names in origins.items() for name in names}

    def exported(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(where[name])
        found = module if module.__name__ == f"{package}.{name}" else getattr(module, name)
        namespace[name] = found
        return found

    return exported

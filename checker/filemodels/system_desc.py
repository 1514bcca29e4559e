"""``system_desc.json`` (R§8.2): one copy per point. The system-description family owns the detail."""
from __future__ import annotations

from typing import Any, Optional

from checker.filemodels.common import FileModel


class SystemDesc(FileModel):
    division: Optional[str] = None
    system_name: Optional[str] = None
    shortened_system_name: Optional[str] = None
    system_availability_status: Optional[str] = None
    max_supported_concurrency: Optional[int] = None
    c_min_override: Any = None
    node_types: Optional[list[Any]] = None
    tps_utilization: Optional[float] = None

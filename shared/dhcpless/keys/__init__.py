"""Every annotation, label, finalizer and name the project reads or writes, by subject.

Keys that belong to other projects (BMO, CAPM3, IPAM) are named here too, so a typo is a
NameError rather than a silent no-op. `from dhcpless import keys; keys.X` reads any of them;
a new key goes in the module of its subject (`annotations`, `labels`, `finalizers`, `groups`,
`secret`, `functions`, `events`, `states`, `netdata`) and is re-exported here.
"""

from dhcpless.keys.annotations import *  # noqa: F403
from dhcpless.keys.events import *  # noqa: F403
from dhcpless.keys.finalizers import *  # noqa: F403
from dhcpless.keys.functions import *  # noqa: F403
from dhcpless.keys.groups import *  # noqa: F403
from dhcpless.keys.labels import *  # noqa: F403
from dhcpless.keys.netdata import *  # noqa: F403
from dhcpless.keys.secret import *  # noqa: F403
from dhcpless.keys.states import *  # noqa: F403

"""What each figure of `dhcpless bench` means, grouped, for the people who read the table.

The JSON report (`report.KEYS`) is the contract for scripts; a person reading forty `key value`
lines cannot tell a total from a per-host count or a measurement from its floor. So the table
prints the keys in groups with a heading each, and every key with a short explanation (the
README's "Performance" table says the same at length). `tests/perf` holds every key of
`report.KEYS` to one group and one explanation here.
"""

from __future__ import annotations

GROUPS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "The batch (first host created to last host unpaused)",
        (
            ("broker_mode", "sync: the Broker as installed; async: answers at once"),
            ("hosts", "hosts in the batch"),
            ("pools", "IP pools per host (K)"),
            ("unpaused", "hosts the chain unpaused (all of them in a good run)"),
            ("seconds", "wall time of the batch"),
            ("hosts_per_second", "hosts / seconds"),
            ("p50_seconds", "median of one host's creation to its unpause"),
            ("p95_seconds", "95th percentile of the same"),
            ("to_unpause_seconds", "each host's creation to unpause (in --json: every value)"),
            ("load_average", "the machine's load (1, 5, 15 min) at the batch's start and end"),
        ),
    ),
    (
        "API work per host, against the minimum the work needs",
        (
            (
                "writes_per_host",
                "writes by the functions, resync's too (create/update/patch/delete)",
            ),
            ("min_writes_per_host", "the minimum: K IPClaims + 1 Secret + 1 host patch"),
            ("reads_per_host", "gets and lists by the functions"),
            ("reads_floor_per_host", "the minimum reads: 2K + 4"),
            ("events_per_host", "Kubernetes Events the functions wrote"),
            ("invocations_per_host", "CloudEvents a host's chain caused, each delivered once"),
            ("lifecycle_writes_per_host", "writes after unpause until every host is available"),
            ("lifecycle", "that period's invocations, reads, writes, Events"),
            ("batch_requests", "every API request of the batch, by verb (totals)"),
        ),
    ),
    (
        "Time against the floor (the same minimal requests, issued back to back)",
        (
            ("floor_seconds", "the whole batch's minimal writes, idle server"),
            ("ratio_to_floor", "seconds / floor_seconds"),
            ("function_seconds_per_host", "gunicorn's request time of every function request"),
            ("floor_seconds_per_host", "one host's minimal requests, sampled during the batch"),
            ("function_to_floor_ratio", "function_seconds_per_host / floor_seconds_per_host"),
            ("floor_idle_seconds_per_host", "the same floor after the batch, idle server"),
            ("floor_samples", "how many loaded-floor samples were taken"),
            ("floor_requests_per_host", "the floor's requests per host (K + 2 reads and writes)"),
            ("function_seconds_per_request", "function seconds per API request they made"),
            ("floor_seconds_per_request", "floor seconds per API request it made"),
            ("cpu_seconds_per_host", "user + system CPU of the function processes"),
        ),
    ),
    (
        "Cold starts and memory (process start to first answered event; medians)",
        (
            ("cold_start_seconds", "each function"),
            ("bare_cold_start_seconds", "a bare Flask + cloudevents app answering 204"),
            ("cold_start_ratio", "each function / the bare app"),
            ("floor_cold_start_seconds", "an app with the functions' dependencies, one GET"),
            ("cold_start_ratio_to_floor", "each function / that app, paired starts"),
            ("cold_starts_in_batch", "starts from zero during the batch, per function (seconds)"),
            ("rss_mb", "peak memory of each function's gunicorn arbiter + worker"),
        ),
    ),
    (
        "At rest, and work no host's chain causes (totals, not per host)",
        (
            ("idle", "BMO rewrites each host's status after the batch: the cost"),
            ("idle_requests", "the requests of that idle period, by verb"),
            ("pool_events_in_batch", "IPPool events delivered to ipclaim-fulfilment"),
            ("pool_event_reads_in_batch", "the reads those pool events cost"),
            ("resync_ticks_in_batch", "PingSource ticks delivered to resync"),
            ("resync_requests_in_batch", "resync's reads and writes"),
            ("resync_writes_in_batch", "of them writes (also in writes_per_host)"),
            ("redeliveries_in_batch", "second and later attempts of an event (0 when clean)"),
        ),
    ),
)

EXPLAINED = {key: text for _, rows in GROUPS for key, text in rows}
"""Every key's explanation."""

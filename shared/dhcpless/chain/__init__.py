"""The chain's one reconcile pipeline per host (`pipeline.reconcile`), laid out by role:

* `gather/`: the only reads; each fact of one host read once into `facts.HostFacts`;
* `decide/`: pure decisions, facts in, frozen `actions` out (no client, no Flask, no clock);
* `act/`: performs the actions through the `kube` adapter, and decides nothing;
* beside them the shared vocabulary: `gate` (is the host ours?), `identity` (is an object
  ours?), `facts`, `actions`, `objects` and `patches` (what a write sends), and `edge` (the
  functions' event checks).
"""

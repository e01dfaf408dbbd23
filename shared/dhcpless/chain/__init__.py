"""The chain's one reconcile pipeline per host (`pipeline.reconcile`), laid out by role:

* `cause`: why a run happens, one frozen value per entry, built by the function; the facts
  gather starts from are seeded from it;
* `gather/`: the only reads; each fact of one host read once into `facts.HostFacts`, and the
  reads an entry needs before it (`entry`: the host; `concerned`: the hosts a cause finds;
  `fleet`: a resync tick's pages), so that no function reads for itself;
* `decide/`: pure decisions, facts in, frozen `actions` out (no client, no Flask, no clock);
* `act/`: performs the actions through the `kube` adapter, and decides nothing;
* beside them the shared vocabulary: `gate` (is the host ours?), `identity` (is an object
  ours?), `facts`, `actions`, `objects` and `patches` (what a write sends), and `edge` (the
  functions' event checks).
"""

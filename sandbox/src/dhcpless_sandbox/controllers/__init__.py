"""client-go / controller-runtime machinery the stand-ins share: reflector, work queue,
informers.
"""

"""ipclaim-fulfilment: once every claim of a host has its address, render the Secret."""

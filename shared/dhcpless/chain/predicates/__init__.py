"""Pure predicates on one host, on claim ownership and on names derived from them: what gather
asks to know what to read, and decide asks to know what to do (neither imports the other).
"""

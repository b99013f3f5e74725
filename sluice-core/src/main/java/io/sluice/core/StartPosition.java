package io.sluice.core;

/** Where to start in a partition the group has never committed. */
public enum StartPosition {
    EARLIEST,
    LATEST
}

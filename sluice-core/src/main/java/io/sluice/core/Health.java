package io.sluice.core;

/** The engine's life cycle, as reported by {@link Engine#health()}. */
public enum Health {
    STARTING,
    RUNNING,
    DRAINING,
    STOPPED,
    FAILED
}

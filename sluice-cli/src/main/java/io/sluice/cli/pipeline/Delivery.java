package io.sluice.cli.pipeline;

/** The archive's delivery guarantee (see {@code docs/exactly-once.md}). */
public enum Delivery {
    EXACTLY_ONCE,
    AT_LEAST_ONCE
}

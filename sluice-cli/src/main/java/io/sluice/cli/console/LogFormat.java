package io.sluice.cli.console;

/** How log lines look: readable text, or one JSON object per line for log collectors. */
public enum LogFormat {
    TEXT,
    JSON
}

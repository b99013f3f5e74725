/**
 * {@code sluice local}: the local servers a quick start left behind, started again on their data.
 */
package io.sluice.cli.local;

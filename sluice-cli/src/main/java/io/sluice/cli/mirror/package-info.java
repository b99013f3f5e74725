/** {@code sluice mirror}: runs a mirror file (copies topics between clusters) with progress, metrics and a drain. */
package io.sluice.cli.mirror;

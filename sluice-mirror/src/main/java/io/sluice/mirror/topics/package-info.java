/** API: see {@link io.sluice.mirror}. */
package io.sluice.mirror.topics;

/**
 * tickwheel behind Netty's {@code io.netty.util.Timer}: {@link io.tickwheel.netty.NettyTimer}.
 *
 * <p>Netty ({@code io.netty:netty-common}, 4.1.x or 4.2.x) is a {@code provided} dependency: the
 * application brings its own.
 */
package io.tickwheel.netty;

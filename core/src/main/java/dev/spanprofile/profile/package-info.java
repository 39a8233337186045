/**
 * The words every other package speaks: frames ({@link dev.spanprofile.profile.FrameTable},
 * {@link dev.spanprofile.profile.FrameKind}), call trees ({@link dev.spanprofile.profile.StackTree},
 * {@link dev.spanprofile.profile.DiffTree}), what a sample measures ({@link dev.spanprofile.profile.SampleKind}) and
 * what a wait was on ({@link dev.spanprofile.profile.WaitKind}).
 * <p>
 * Imports no other spanprofile package.
 */
package dev.spanprofile.profile;

/**
 * The words every other package speaks: frames
 * ({@link dev.spanprofile.profile.FrameTable},
 * {@link dev.spanprofile.profile.FrameKind}), the call tree
 * ({@link dev.spanprofile.profile.StackTree}, one value column for a profile and one per
 * side for a comparison, bounded by {@link dev.spanprofile.profile.TreeTrimmer}), what a
 * sample measures ({@link dev.spanprofile.profile.SampleKind}) and what a wait was on
 * ({@link dev.spanprofile.profile.WaitKind}).
 * <p>
 * Imports no other spanprofile package.
 */
package dev.spanprofile.profile;

/**
 * Whether the container's CPU limit throttles the process: the kernel's count of
 * throttled periods and time for the process's control group
 * ({@link dev.spanprofile.cgroup.CpuStatFile}), read once per collection into a bounded
 * history ({@link dev.spanprofile.cgroup.ThrottlingHistory}) from which a request's
 * window is looked up. Imports no other spanprofile package.
 */
package dev.spanprofile.cgroup;

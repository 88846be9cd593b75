"""Where and how a model runs: device and precision (``device``), batched forward passes
(``inference``), the offline models named by short names (``offline``), loading a model
(``loading``) and keeping freed memory on CPU (``cpu_allocator``)."""

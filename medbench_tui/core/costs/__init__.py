"""What a run's work-up costs and how it could harm: the price table (shipped relative
prices, a bank's own ``prices.yaml``), the cost of each run (tests ordered during the
consultation and in the plan, the visit, the reference work-up) and harm by omission and by
commission. ``docs/costs.md`` explains each figure."""

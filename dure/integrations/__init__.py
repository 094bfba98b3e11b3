"""Trainer integrations: reward functions for verl, TRL, OpenRLHF, SkyRL, rLLM and ``verifiers``.

Each adapter is a thin wrapper of :mod:`dure.integrations.core`, which turns an exported row's
``ground_truth`` back into the task and scores a completion through :func:`dure.scoring.score`.
"""
